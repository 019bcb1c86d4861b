// The one way to create the directory a file goes in: level by level, bounded, with a clear refusal.
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DirectoryError, ensureDirectory, ensureParentDirectory } from '../../src/io/directories.js';

let root: string;
beforeEach(() => {
  root = mkdtempSync(path.join(os.tmpdir(), 'fleetctl-dirs-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('ensureDirectory', () => {
  it('creates every missing level, private (0700) unless told otherwise', () => {
    const target = path.join(root, 'a', 'b', 'c');
    ensureDirectory(target);
    for (const level of ['a', 'a/b', 'a/b/c']) expect(statSync(path.join(root, level)).mode & 0o777).toBe(0o700 & ~process.umask());
    ensureDirectory(path.join(root, 'shared', 'x'), { mode: 0o777 });
    expect(statSync(path.join(root, 'shared', 'x')).mode & 0o777).toBe(0o777 & ~process.umask());
  });

  it('does nothing to a directory that exists, relative paths included', () => {
    ensureDirectory(root);
    const cwd = process.cwd();
    process.chdir(root);
    try {
      ensureDirectory('rel/dir');
    } finally {
      process.chdir(cwd);
    }
    expect(statSync(path.join(root, 'rel', 'dir')).isDirectory()).toBe(true);
  });

  it('names a file in the way', () => {
    writeFileSync(path.join(root, 'file'), 'x');
    expect(() => ensureDirectory(path.join(root, 'file', 'sub'))).toThrow(new DirectoryError(path.join(root, 'file', 'sub'), `cannot create ${path.join(root, 'file', 'sub')}: ${path.join(root, 'file')} exists and is not a directory`));
  });

  it('refuses at once where mkdir cannot create a level (under /proc, where a recursive mkdir loops for ever)', () => {
    const started = Date.now();
    expect(() => ensureDirectory('/proc/fleetctl-nope/x')).toThrow(DirectoryError);
    expect(() => ensureDirectory('/proc/fleetctl-nope/x')).toThrow(/^cannot create \/proc\/fleetctl-nope \(/);
    expect(Date.now() - started).toBeLessThan(1000);
  });
});

describe('ensureParentDirectory', () => {
  it('creates the directory of a file, not the file', () => {
    const file = path.join(root, 'runs', 'r1.ndjson');
    ensureParentDirectory(file);
    expect(statSync(path.join(root, 'runs')).isDirectory()).toBe(true);
    expect(() => statSync(file)).toThrow();
  });
});
