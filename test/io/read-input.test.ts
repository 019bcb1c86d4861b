import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { readFileOrStdin, readJsonInput } from '../../src/io/read-input.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'fleetctl-input-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const stdin = (text: string) => {
  const stream = new PassThrough();
  stream.end(text);
  return stream;
};

describe('readJsonInput', () => {
  it('reads - from stdin and a path from the file', async () => {
    const file = path.join(dir, 'body.json');
    writeFileSync(file, '{"a":1}');
    expect(await readJsonInput('-', stdin('{"b":2}'), '--body')).toEqual({ b: 2 });
    expect(await readJsonInput(file, stdin(''), '--body')).toEqual({ a: 1 });
  });

  it('names the file (or stdin) when it is not JSON, and a file that cannot be read', async () => {
    await expect(readJsonInput('-', stdin('nope'), '--body')).rejects.toThrow(/^--body \(stdin\) is not valid JSON/);
    await expect(readFileOrStdin(path.join(dir, 'missing.json'), stdin(''), '--body')).rejects.toMatchObject({
      exitCode: 2,
      message: expect.stringContaining('missing.json: no such file'),
    });
  });
});
