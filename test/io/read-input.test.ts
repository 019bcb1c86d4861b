import { writeFileSync } from 'node:fs';
import { execFileSync, spawn } from 'node:child_process';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { exceedsDepth, MAX_JSON_DEPTH, readFileOrStdin, readJsonInput } from '../../src/io/read-input.js';
import { suiteTempDir } from '../support/temp-dir.js';

const dir = suiteTempDir('fleetctl-input-');
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
      message: expect.stringContaining('missing.json": no such file'),
    });
  });
});

describe('bounded, interruptible reads', () => {
  it('refuses what is not a regular file or a pipe', async () => {
    await expect(readFileOrStdin('/dev/zero', stdin(''), '--from-file')).rejects.toThrow('cannot read --from-file "/dev/zero": it is a character device, not a regular file');
    await expect(readFileOrStdin(dir, stdin(''), '--from-file')).rejects.toThrow('it is a directory, not a regular file');
  });

  it('stops at the size limit, for a file and for stdin', async () => {
    const file = path.join(dir, 'big.txt');
    writeFileSync(file, 'x'.repeat(2048));
    await expect(readFileOrStdin(file, stdin(''), '--input', { maxBytes: 1024 })).rejects.toThrow(/^--input ".*big\.txt" is larger than/);
    await expect(readFileOrStdin('-', stdin('y'.repeat(2048)), '--input', { maxBytes: 1024 })).rejects.toThrow(/^--input \(stdin\) is larger than/);
    expect(await readFileOrStdin(file, stdin(''), '--input', { maxBytes: 4096 })).toHaveLength(2048);
  });

  it('a FIFO nobody writes to, and stdin that never ends, stop when the command is interrupted', async () => {
    const fifo = path.join(dir, 'fifo');
    execFileSync('mkfifo', [fifo]);
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('interrupted')), 100);
    await expect(readFileOrStdin(fifo, stdin(''), '--from-file', { signal: controller.signal })).rejects.toThrow('interrupted');
    const open = new PassThrough();
    open.write('HW-1\n');
    const again = new AbortController();
    setTimeout(() => again.abort(new Error('interrupted')), 50);
    await expect(readFileOrStdin('-', open, '--from-file', { signal: again.signal })).rejects.toThrow('interrupted');
  });

  it('a pipe is read to its end', async () => {
    const fifo = path.join(dir, 'fifo-written');
    execFileSync('mkfifo', [fifo]);
    const writer = spawn('sh', ['-c', `printf 'HW-1\\nHW-2\\n' > '${fifo}'`]);
    expect(await readFileOrStdin(fifo, stdin(''), '--from-file')).toBe('HW-1\nHW-2\n');
    writer.kill();
  });

  it('refuses JSON nested deeper than the limit before parsing it, in one pass', async () => {
    const deep = '['.repeat(200_000) + ']'.repeat(200_000);
    await expect(readJsonInput('-', stdin(deep), '--input')).rejects.toThrow(`--input (stdin) is nested more than ${MAX_JSON_DEPTH} levels deep`);
    const ok = '['.repeat(MAX_JSON_DEPTH) + ']'.repeat(MAX_JSON_DEPTH);
    expect(await readJsonInput('-', stdin(ok), '--input')).toBeInstanceOf(Array);
    // brackets inside strings do not count
    expect(exceedsDepth(JSON.stringify({ a: '['.repeat(500) }), 2)).toBe(false);
    expect(exceedsDepth('{"a":"\\"[[["}', 1)).toBe(false);
  });

});

