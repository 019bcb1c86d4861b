// One writer per format (src/output/writers/): every format the registry names writes the same records so that
// they read back the same, and no module but the registry names a format to decide what to do.
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';
import { describe, expect, it } from 'vitest';
import { Output } from '../../src/output/render.js';
import { OUTPUT_FORMATS, formatFromFlags, writerFor, type OutputFormat } from '../../src/output/writers/registry.js';
import { IOStreams } from '../../src/io/streams.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const REGISTRY = 'src/output/writers/registry.ts';

const records = [
  { id: 'd1', name: 'North, "big"', count: 3, ok: true },
  { id: 'd2', name: 'South\tyard', count: 0, ok: false },
  { id: 'd3', name: 'Ünïcode · east', count: 12, ok: true },
];
const COLUMNS = ['id', 'name', 'count', 'ok'];

/** RFC 4180: quoted fields, doubled quotes, commas and line breaks inside quotes. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') (field += '"'), i++;
      else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') row.push(field), (field = '');
    else if (ch === '\n') row.push(field), rows.push(row), (row = []), (field = '');
    else field += ch;
  }
  return rows;
}

const rowsToRecords = ([header, ...rows]: string[][]) => rows.map((row) => Object.fromEntries(header!.map((name, i) => [name, row[i]])));
const tsv = (text: string) => text.split('\n').filter(Boolean).map((line) => line.split('\t'));
/** The records as a table or CSV carries them: every value as text (a tab, which would split a TSV row, a space). */
const asText = (tab: string) => records.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, String(v).replace('\t', tab)])));

/** How each format's output is read back into records: a format the registry gains must be given one here. */
const READERS: Record<OutputFormat, { list(out: string): unknown; one(out: string): unknown; expected: 'values' | 'text' | 'text-tsv' }> = {
  json: { list: (out) => JSON.parse(out), one: (out) => JSON.parse(out), expected: 'values' },
  ndjson: { list: (out) => out.trimEnd().split('\n').map((line) => JSON.parse(line)), one: (out) => JSON.parse(out), expected: 'values' },
  yaml: { list: (out) => parseYaml(out), one: (out) => parseYaml(out), expected: 'values' },
  csv: { list: (out) => rowsToRecords(parseCsv(out)), one: (out) => rowsToRecords(parseCsv(out))[0], expected: 'text' },
  table: { list: (out) => rowsToRecords(tsv(out)), one: (out) => Object.fromEntries(tsv(out)), expected: 'text-tsv' },
  wide: { list: (out) => rowsToRecords(tsv(out)), one: (out) => Object.fromEntries(tsv(out)), expected: 'text-tsv' },
};

function output(format: OutputFormat) {
  const io = IOStreams.forTest({ tty: false });
  return { io, out: new Output(io, { format }) };
}

async function* pages(): AsyncIterable<unknown> {
  yield* records.slice(0, 2);
  await new Promise((resolve) => setImmediate(resolve));
  yield* records.slice(2);
}

describe('each writer round-trips the same records', () => {
  it('the registry names the formats -o offers, and each has a reader here', () => {
    expect([...OUTPUT_FORMATS].sort()).toEqual(Object.keys(READERS).sort());
  });

  it.each([...OUTPUT_FORMATS])('-o %s: a list, streamed over two pages, reads back as the records', async (format) => {
    const { io, out } = output(format);
    expect(await out.list(pages(), COLUMNS)).toBe(records.length);
    const reader = READERS[format];
    const expected = reader.expected === 'values' ? records : asText(reader.expected === 'text-tsv' ? ' ' : '\t');
    expect(reader.list(io.stdout())).toEqual(expected);
    expect(io.stderr()).toBe('');
  });

  it.each([...OUTPUT_FORMATS])('-o %s: one record reads back as itself', async (format) => {
    const { io, out } = output(format);
    await out.object(records[1]);
    const reader = READERS[format];
    const expected = reader.expected === 'values' ? records[1] : asText(reader.expected === 'text-tsv' ? ' ' : '\t')[1];
    expect(reader.one(io.stdout())).toEqual(expected);
  });

  it('behaviour is asked of the writer: for a person, whole records, results one by one, --jq', () => {
    const behaviour = (format: OutputFormat) => {
      const w = writerFor(format);
      return { person: w.forPerson, whole: w.wholeRecords, streams: w.streamsRecords, jq: w.jq ?? null };
    };
    expect(Object.fromEntries(OUTPUT_FORMATS.map((f) => [f, behaviour(f)]))).toEqual({
      table: { person: true, whole: false, streams: false, jq: 'terminal' },
      wide: { person: true, whole: false, streams: false, jq: null },
      json: { person: false, whole: true, streams: false, jq: 'indented' },
      ndjson: { person: false, whole: true, streams: true, jq: 'lines' },
      csv: { person: false, whole: false, streams: false, jq: null },
      yaml: { person: false, whole: true, streams: false, jq: null },
    });
    // --jq is refused with a format whose writer has no layout for its values, from the writer, not a list of names
    for (const format of OUTPUT_FORMATS) {
      const choose = () => formatFromFlags({ output: format, jq: '.id' });
      if (writerFor(format).jq) expect(choose()).toBe(format);
      else expect(choose).toThrow(`--jq prints JSON values and raw strings, not ${format}`);
    }
  });
});

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const rel = path.posix.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(rel);
    return entry.name.endsWith('.ts') && !entry.name.includes('.gen.') ? [rel] : [];
  });
}

const NAME = `(?:${OUTPUT_FORMATS.join('|')})`;
/** A format's name compared, switched on, or listed beside another: code that decides by the format in use. */
const DECIDES_BY_NAME = [
  new RegExp(`[!=]==?\\s*(['"\`])${NAME}\\1`),
  new RegExp(`(['"\`])${NAME}\\1\\s*[!=]==?`),
  new RegExp(`case\\s+(['"\`])${NAME}\\1\\s*:`),
  new RegExp(`(['"\`])${NAME}\\1\\s*,\\s*(['"\`])${NAME}\\2`),
  /\b(?:output|out)(?:\(\))?\.(?:options\.)?format(?:Name)?\s*[!=]==?/,
  /withFormat\(/,
];

function decisionsByName(text: string): string[] {
  return text.split('\n').filter((line) => DECIDES_BY_NAME.some((rule) => rule.test(line)));
}

describe('the registry is the only place that names formats', () => {
  it('finds the code it forbids (the rules are not empty)', () => {
    expect(decisionsByName("if (output.format === 'csv') throw x;")).toHaveLength(1);
    expect(decisionsByName('const streaming = output.format === NDJSON;')).toHaveLength(1);
    expect(decisionsByName("    case 'ndjson':")).toHaveLength(1);
    expect(decisionsByName("if (g.jq !== undefined && ['csv', 'wide'].includes(format))")).toHaveLength(1);
    expect(decisionsByName("return deps.output().withFormat('json');")).toHaveLength(1);
    expect(decisionsByName("import v1 from './v1.json' with { type: 'json' };")).toEqual([]);
    expect(decisionsByName("if (typeof member.format === 'string') return member.format;")).toEqual([]);
  });

  it('no module of src/ but the registry decides by a format name', () => {
    const found = sourceFiles('src')
      .filter((file) => file !== REGISTRY)
      .flatMap((file) => decisionsByName(readFileSync(path.join(root, file), 'utf8')).map((line) => `${file}: ${line.trim()}`));
    expect(found).toEqual([]);
  });

  it('outside the output layer, nothing reads which format is in use', () => {
    const outside = sourceFiles('src').filter((file) => !file.startsWith('src/output/'));
    const reads = outside.filter((file) => /\boutput\(\)\.options\b|\boutput\.options\b|\bformatName\s*[!=]==?/.test(readFileSync(path.join(root, file), 'utf8')));
    expect(reads).toEqual([]);
  });
});
