// -o yaml, with the yaml package loaded only when asked for: a list as one sequence written item by item (with
// --all one document per item, read as they come like NDJSON), a resource or a stream's item as a document.
import type { ToStringOptions } from 'yaml';
import { itemSink } from '../follow-sink.js';
import type { FormatWriter, Records, WriterOutput } from './writer.js';

// Strings that a YAML 1.1 reader would take for something else (yes, no, on, times, 0x1F) are quoted, so every
// reader, old or new, gets back the API's values; long strings are never folded, so grep still finds them.
const OPTIONS = { version: '1.1', lineWidth: 0, minContentWidth: 0 } as const satisfies ToStringOptions & { version: '1.1' };

interface YamlText {
  /** One value as a document of its own. */
  document(value: unknown): string;
  /** One item of a sequence: its `- ` entry, so a long list is written item by item. */
  sequenceItem(value: unknown): string;
}

let loaded: Promise<YamlText> | undefined;

function yaml(): Promise<YamlText> {
  return (loaded ??= import('yaml').then(({ default: { stringify } }) => ({
    // yaml is CommonJS: its exports are the default export of an ESM import (bundled or not)
    document: (value: unknown) => stringify(value, OPTIONS),
    sequenceItem: (value: unknown) => stringify([value], OPTIONS),
  })));
}

async function writeYamlList(records: Records, out: WriterOutput, documents: boolean): Promise<number> {
  const text = await yaml();
  let count = 0;
  for await (const record of records) {
    await out.writeInStream(out.safeForTerminal(documents ? `---\n${text.document(record)}` : text.sequenceItem(record)));
    count++;
  }
  if (count === 0) out.write(documents ? '' : '[]\n');
  return count;
}

export const yamlWriter: FormatWriter = {
  forPerson: false,
  wholeRecords: true,
  streamsRecords: false,
  loneItems: true,
  list: (records, run) => writeYamlList(records, run, run.all),
  object: async (record, out) => out.write(out.safeForTerminal((await yaml()).document(record))),
  item: async (record, out) => out.writeInStream(`---\n${out.safeForTerminal((await yaml()).document(record))}`),
  follow: itemSink,
};
