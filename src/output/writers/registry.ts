// The output formats -o accepts, each with its writer: the one place that names them. Adding a format is a file
// of its own (a FormatWriter) and a line here.
import { UsageError } from '../../errors.js';
import { quoteInput } from '../../shared/terminal-text.js';
import type { FormatWriter } from './writer.js';
import { tableWriter } from './table.js';
import { wideWriter } from './wide.js';
import { jsonWriter } from './json.js';
import { ndjsonWriter } from './ndjson.js';
import { csvWriter } from './csv.js';
import { yamlWriter } from './yaml.js';

const WRITERS = {
  table: tableWriter,
  wide: wideWriter,
  json: jsonWriter,
  ndjson: ndjsonWriter,
  csv: csvWriter,
  yaml: yamlWriter,
} as const satisfies Record<string, FormatWriter>;

export type OutputFormat = keyof typeof WRITERS;

export const OUTPUT_FORMATS = Object.keys(WRITERS) as readonly OutputFormat[];

/** Without -o. */
const DEFAULT_FORMAT: OutputFormat = 'table';
/** What --json (and `api` when not told otherwise) prints. */
export const JSON_FORMAT: OutputFormat = 'json';

export function writerFor(format: OutputFormat): FormatWriter {
  return WRITERS[format];
}

export function parseOutputFormat(value: string): OutputFormat {
  if (Object.hasOwn(WRITERS, value)) return value as OutputFormat;
  throw new UsageError(`invalid output format ${quoteInput(value)}`, `use one of: ${OUTPUT_FORMATS.join(', ')}`);
}

/** -o (--json its short form), checked against --jq and --slurp, which only make sense with JSON values. */
export function formatFromFlags(g: { output?: string; json?: boolean; jq?: string; slurp?: boolean }): OutputFormat {
  const format = g.json ? JSON_FORMAT : parseOutputFormat(g.output ?? DEFAULT_FORMAT);
  if (g.slurp && g.jq === undefined) throw new UsageError('--slurp only applies with --jq', "for example: --jq 'length' --slurp");
  if (g.jq !== undefined && WRITERS[format].jq === undefined) {
    throw new UsageError(`--jq prints JSON values and raw strings, not ${format}`, 'drop -o, or use -o json (indented) or -o ndjson (one line a value)');
  }
  return format;
}
