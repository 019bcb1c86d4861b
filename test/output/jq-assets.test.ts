// The standalone executable (npm run build:sea) has no node_modules: jq-web's script and jq.wasm are its assets,
// which src/output/jq.ts runs through node:sea. Here a stand-in for node:sea serves the same two files.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { JqProgram, jqWebFromAssets, type SeaApi } from '../../src/output/jq.js';

const jqWeb = path.dirname(createRequire(import.meta.url).resolve('jq-web'));

/** node:sea as an executable built with jq.js and jq.wasm as assets answers; `served` counts the reads. */
function assets(served: string[] = []): SeaApi {
  const read = (key: string) => {
    served.push(key);
    if (key !== 'jq.js' && key !== 'jq.wasm') throw new Error(`no asset ${key}`);
    return readFileSync(path.join(jqWeb, key));
  };
  return {
    isSea: () => true,
    getAsset: ((key: string, encoding?: string) => {
      const bytes = read(key);
      return encoding ? bytes.toString('utf8') : bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
    }) as SeaApi['getAsset'],
  };
}

describe('jq from the executable\'s assets', () => {
  it('runs jq, its WebAssembly read from the asset and not from a file', async () => {
    const served: string[] = [];
    const jq = await jqWebFromAssets(assets(served));
    const result = new JqProgram(jq, '.name').run([{ name: 'Truck 1' }, { name: 'Van 2' }], { pretty: false });
    expect(result).toEqual({ text: 'Truck 1\nVan 2\n', messages: '' });
    expect(served.sort()).toEqual(['jq.js', 'jq.wasm']);
  });
});
