// The one output layer: every command hands its records here, and only here is stdout written.
import type { IOStreams } from '../io/streams.js';
import { UsageError } from '../errors.js';
import { cellText, flattenRecord, valueAt } from './values.js';

export const OUTPUT_FORMATS = ['table', 'json', 'ndjson', 'csv'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

export interface OutputOptions {
  format: OutputFormat;
  /** --columns: overrides the resource's default columns (dotted paths for nested fields). */
  columns?: string[];
}

type Records = AsyncIterable<unknown> | Iterable<unknown>;

export class Output {
  constructor(
    private readonly io: IOStreams,
    readonly options: OutputOptions,
  ) {}

  get format(): OutputFormat {
    return this.options.format;
  }

  /** True when the output is for programs (json, ndjson, csv): messages must stay out of stdout. */
  get isMachineReadable(): boolean {
    return this.options.format !== 'table';
  }

  /** Renders a list; json, ndjson, csv and piped tables stream item by item. Returns the item count. */
  async list(records: Records, defaultColumns: string[]): Promise<number> {
    const columns = this.options.columns ?? defaultColumns;
    const chosen = this.chosenColumns;
    if (!chosen) return this.listAs(records, columns);
    const absent = new Set(chosen);
    const count = await this.listAs(noticingFields(records, absent), columns);
    if (count > 0) this.warnAbsent(absent);
    return count;
  }

  private async listAs(records: Records, columns: string[]): Promise<number> {
    switch (this.options.format) {
      case 'json':
        return this.writeJsonArray(records);
      case 'ndjson':
        return this.writeEach(records, (record) => `${JSON.stringify(record)}\n`);
      case 'csv':
        return this.writeEach(records, (record) => `${columns.map((c) => csvField(cellText(valueAt(record, c)))).join(',')}\n`, `${columns.map(csvField).join(',')}\n`);
      case 'table':
        if (!this.io.stdoutIsTTY) {
          return this.writeEach(records, (record) => `${columns.map((c) => tsvField(cellText(valueAt(record, c)))).join('\t')}\n`, `${columns.join('\t')}\n`);
        }
        return this.writeTtyTable(records, columns);
    }
  }

  /** Renders one resource: the object itself in JSON, FIELD/VALUE rows in a table. */
  async object(record: unknown, columns?: string[]): Promise<void> {
    const chosen = this.options.columns ?? columns;
    this.warnAbsent(new Set(this.chosenColumns?.filter((c) => valueAt(record, c) === undefined)));
    switch (this.options.format) {
      case 'json':
        this.write(`${JSON.stringify(record, null, 2)}\n`);
        return;
      case 'ndjson':
        this.write(`${JSON.stringify(record)}\n`);
        return;
      case 'csv': {
        const cols = chosen ?? flattenRecord(record).map(([key]) => key);
        this.write(`${cols.map(csvField).join(',')}\n${cols.map((c) => csvField(cellText(valueAt(record, c)))).join(',')}\n`);
        return;
      }
      case 'table': {
        const rows: [string, unknown][] = chosen ? chosen.map((c) => [c, valueAt(record, c)]) : flattenRecord(record);
        if (!this.io.stdoutIsTTY) {
          this.write(rows.map(([key, value]) => `${key}\t${tsvField(cellText(value))}\n`).join(''));
          return;
        }
        const table = await this.newTable(undefined);
        const keyWidth = Math.max(...rows.map(([key]) => key.length));
        const valueWidth = Math.max(40, (this.io.columns || 120) - keyWidth - 7);
        for (const [key, value] of rows) {
          const text = cellText(value);
          table.push([this.paint.dim(key), IDENTIFIER.test(text) ? text : truncate(text, valueWidth)]);
        }
        this.write(`${table.toString()}\n`);
        return;
      }
    }
  }

  /** The --columns the user gave, when the format shows columns (json and ndjson always carry whole items). */
  private get chosenColumns(): string[] | undefined {
    return this.options.format === 'csv' || this.options.format === 'table' ? this.options.columns : undefined;
  }

  /** A mistyped --columns name would otherwise show as a silently empty column. */
  private warnAbsent(absent: Set<string>): void {
    if (absent.size === 0) return;
    const names = [...absent].map((c) => `"${c}"`).join(', ');
    this.io.info(`Warning: --columns: no record has ${absent.size === 1 ? 'a field' : 'fields'} ${names}; check the spelling (nested fields are dotted, such as delivery.url; -o json shows every field)`);
  }

  /** Raw text for stdout, such as a token or a completion script. */
  text(text: string): void {
    this.write(text.endsWith('\n') ? text : `${text}\n`);
  }

  private write(text: string): void {
    this.io.out.write(text);
  }

  /** A write in a stream of items: waits while the reader is behind, so memory stays flat however long the list. */
  private async writeInStream(text: string): Promise<void> {
    const out = this.io.out;
    if (out.write(text) || out.destroyed) return;
    await new Promise<void>((resolve) => {
      const done = () => {
        out.off('drain', done);
        out.off('error', done);
        out.off('close', done);
        resolve();
      };
      out.on('drain', done);
      out.on('error', done);
      out.on('close', done);
    });
  }

  /** The header goes out with the first record (or after an empty list), so a failed request leaves stdout empty. */
  private async writeEach(records: Records, line: (record: unknown) => string, header = ''): Promise<number> {
    let count = 0;
    for await (const record of records) {
      await this.writeInStream(`${count === 0 ? header : ''}${line(record)}`);
      count++;
    }
    if (count === 0 && header) this.write(header);
    return count;
  }

  private async writeJsonArray(records: Records): Promise<number> {
    let count = 0;
    for await (const record of records) {
      const body = JSON.stringify(record, null, 2).replace(/\n/g, '\n  ');
      await this.writeInStream(`${count === 0 ? '[\n  ' : ',\n  '}${body}`);
      count++;
    }
    this.write(count === 0 ? '[]\n' : '\n]\n');
    return count;
  }

  private async writeTtyTable(records: Records, columns: string[]): Promise<number> {
    const headers = columns.map((c) => c.toUpperCase().replace(/[._]/g, ' '));
    const rows: string[][] = [];
    for await (const record of records) rows.push(columns.map((c) => oneLine(cellText(valueAt(record, c)))));
    if (rows.length === 0) {
      this.io.info('No results.');
      return 0;
    }
    const widths = fitColumns(headers, rows, this.io.columns ?? 120, columns.map(isIdentifierColumn));
    const table = await this.newTable(headers.map((h, i) => this.paint.bold(truncate(h, widths[i]!))));
    for (const row of rows) table.push(row.map((cell, i) => truncate(cell, widths[i]!)));
    this.write(`${table.toString()}\n`);
    return rows.length;
  }

  private get paint() {
    const on = this.io.colorEnabled();
    return {
      bold: (text: string) => (on ? `\u001b[1m${text}\u001b[22m` : text),
      dim: (text: string) => (on ? `\u001b[2m${text}\u001b[22m` : text),
    };
  }

  private async newTable(head: string[] | undefined) {
    const { default: Table } = await import('cli-table3');
    // Compact: no rule between rows, so a page of results fits on a screen.
    const compact = { mid: '', 'left-mid': '', 'mid-mid': '', 'right-mid': '' };
    return new Table({ head: head ?? [], chars: compact, style: { head: [], border: [] } });
  }
}

export function parseOutputFormat(value: string): OutputFormat {
  if ((OUTPUT_FORMATS as readonly string[]).includes(value)) return value as OutputFormat;
  throw new UsageError(`invalid output format "${value}"`, `use one of: ${OUTPUT_FORMATS.join(', ')}`);
}

function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ');
}

function truncate(text: string, width: number): string {
  const flat = oneLine(text);
  return flat.length > width ? `${flat.slice(0, width - 1)}…` : flat;
}

const IDENTIFIER = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** id, hardware_id, event_id...: values a user copies into the next command. */
function isIdentifierColumn(column: string): boolean {
  const last = column.split('.').pop()!;
  return last === 'id' || last.endsWith('_id');
}

/** Passes records through, striking from `absent` each field that some record has. */
async function* noticingFields(records: Records, absent: Set<string>): AsyncIterable<unknown> {
  for await (const record of records) {
    for (const field of absent) if (valueAt(record, field) !== undefined) absent.delete(field);
    yield record;
  }
}

/**
 * Column widths that fit the terminal: the widest columns give way first, down to their header, but a column
 * of identifiers (uuids, or a column named like one) is never cut, since a cut id cannot be copied.
 */
export function fitColumns(headers: string[], rows: string[][], terminalWidth: number, identifiers: boolean[] = []): number[] {
  const widths = headers.map((header, i) => Math.max(header.length, ...rows.map((row) => row[i]!.length)));
  const keep = headers.map((_, i) => identifiers[i] || rows.every((row) => row[i] === '' || IDENTIFIER.test(row[i]!)));
  // A column gives way down to its header (at most 16 characters), and never below 8.
  const floor = headers.map((header) => Math.max(8, Math.min(16, header.length)));
  const frame = 3 * headers.length + 1;
  let excess = widths.reduce((sum, width) => sum + width, 0) + frame - terminalWidth;
  while (excess > 0) {
    let widest = -1;
    widths.forEach((width, i) => {
      if (!keep[i] && width > floor[i]! && (widest < 0 || width > widths[widest]!)) widest = i;
    });
    if (widest < 0) break;
    widths[widest]--;
    excess--;
  }
  return widths;
}

function tsvField(text: string): string {
  return text.replace(/[\t\r\n]+/g, ' ');
}

function csvField(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}
