// The output formats -o accepts: a leaf, so the renderer and the sinks it hands records to (follow-sink.ts)
// name them without importing each other.
import { UsageError } from '../errors.js';
import { quoteInput } from '../shared/terminal-text.js';

export const OUTPUT_FORMATS = ['table', 'wide', 'json', 'ndjson', 'csv', 'yaml'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

export function parseOutputFormat(value: string): OutputFormat {
  if ((OUTPUT_FORMATS as readonly string[]).includes(value)) return value as OutputFormat;
  throw new UsageError(`invalid output format ${quoteInput(value)}`, `use one of: ${OUTPUT_FORMATS.join(', ')}`);
}
