// replaceFileAtomicallySync: the compile cache's writes at a process's exit (src/compile-cache.ts) replace a file
// whole, leave no temporary, and never write through a file or link already at the temporary's name.
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { replaceFileAtomicallySync } from '../../src/io/temporary-file.js';
import { tempDir } from '../support/temp-dir.js';

describe('replaceFileAtomicallySync', () => {
  it('replaces the file whole, owner-only, and leaves no temporary', () => {
    const dir = tempDir('fleetctl-temporary-');
    const file = path.join(dir, 'main-1a2b.code');
    writeFileSync(file, 'old');
    replaceFileAtomicallySync(file, Buffer.from([1, 2, 3]));
    expect([...readFileSync(file)]).toEqual([1, 2, 3]);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir)).toEqual(['main-1a2b.code']);
  });

  it('a file or link at a temporary\'s name is never written through: the write fails, the file and the link\'s target stay', () => {
    const dir = tempDir('fleetctl-temporary-');
    const file = path.join(dir, 'core.code');
    const target = path.join(dir, 'elsewhere');
    writeFileSync(file, 'kept');
    writeFileSync(target, 'untouched');
    // the temporaries this process would use next: its pid and a count
    for (let n = 1; n <= 64; n++) symlinkSync(target, path.join(dir, `.core.code.${process.pid}.${n.toString(16)}.tmp`));
    expect(() => replaceFileAtomicallySync(file, 'new')).toThrow(/EEXIST/);
    expect(readFileSync(file, 'utf8')).toBe('kept');
    expect(readFileSync(target, 'utf8')).toBe('untouched');
  });

  it('removes the temporaries of killed writers once a minute old', () => {
    const dir = tempDir('fleetctl-temporary-');
    const file = path.join(dir, 'core.code');
    const stale = path.join(dir, '.core.code.4242.1.tmp');
    writeFileSync(stale, 'half');
    utimesSync(stale, new Date(Date.now() - 120_000), new Date(Date.now() - 120_000));
    replaceFileAtomicallySync(file, 'whole');
    expect(readdirSync(dir)).toEqual(['core.code']);
  });
});
