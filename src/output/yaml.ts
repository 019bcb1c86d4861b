// -o yaml with the yaml package, loaded only when asked for.
import type { ToStringOptions } from 'yaml';

// Strings that a YAML 1.1 reader would take for something else (yes, no, on, times, 0x1F) are quoted, so every
// reader, old or new, gets back the API's values; long strings are never folded, so grep still finds them.
const OPTIONS = { version: '1.1', lineWidth: 0, minContentWidth: 0 } as const satisfies ToStringOptions & { version: '1.1' };

export interface YamlWriter {
  /** One value as a document of its own. */
  document(value: unknown): string;
  /** One item of a sequence: its `- ` entry, so a long list is written item by item. */
  sequenceItem(value: unknown): string;
}

export async function loadYamlWriter(): Promise<YamlWriter> {
  // yaml is CommonJS: its exports are the default export of an ESM import (bundled or not)
  const { default: { stringify } } = await import('yaml');
  return {
    document: (value) => stringify(value, OPTIONS),
    sequenceItem: (value) => stringify([value], OPTIONS),
  };
}
