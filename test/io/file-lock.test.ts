import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { spawn, spawnSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { buildSync } from 'esbuild';
import { LockBusyError, acquireLock, readLockOwner, withLock } from '../../src/io/file-lock.js';
import { tempDir } from '../support/temp-dir.js';

/** A pid that ran and has ended: a lock it left is a crashed holder's. */
function endedPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(child.stdout);
}

describe('acquireLock', () => {
  it('records who holds the lock, and removes it on release', async () => {
    const file = path.join(tempDir('fleetctl-lock-'), 'store.lock');
    const lock = await acquireLock(file, { what: 'the store', waitMs: 0, purpose: 'config set' });
    expect(readLockOwner(file)).toMatchObject({ pid: process.pid, hostname: os.hostname(), purpose: 'config set' });
    lock.release();
    expect(existsSync(file)).toBe(false);
    lock.release(); // twice: harmless
  });

  it('refuses at once with no wait, naming the lock file and the holding process (exit 6)', async () => {
    const file = path.join(tempDir('fleetctl-lock-'), 'store.lock');
    const first = await acquireLock(file, { what: 'run R1', waitMs: 0, purpose: 'devices reboot' });
    const error = await acquireLock(file, { what: 'run R1', waitMs: 0 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LockBusyError);
    expect((error as LockBusyError).exitCode).toBe(6);
    expect((error as Error).message).toMatch(new RegExp(`^run R1 is in use by process ${process.pid} \\(devices reboot, since .+\\): could not lock ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`));
    first.release();
  });

  it('a lock just created, its holder not yet written (a loaded machine between the two): the refusal still names the holder', async () => {
    const file = path.join(tempDir('fleetctl-lock-'), 'run.lock');
    writeFileSync(file, '');
    const holder = { pid: process.ppid, hostname: os.hostname(), acquired_at: '2026-11-28T03:00:00Z', purpose: 'a bulk run', token: 't' };
    setTimeout(() => writeFileSync(file, JSON.stringify(holder)), 30);
    await expect(acquireLock(file, { what: 'run R1', waitMs: 0 })).rejects.toThrow(new RegExp(`^run R1 is in use by process ${process.ppid} \\(a bulk run, since 2026-11-28T03:00:00Z\\)`));
  });

  it('waits for a holder that releases within the wait, and gives up after it otherwise', async () => {
    const file = path.join(tempDir('fleetctl-lock-'), 'store.lock');
    const first = await acquireLock(file, { what: 'the store', waitMs: 0 });
    setTimeout(() => first.release(), 150);
    const second = await acquireLock(file, { what: 'the store', waitMs: 5_000 });
    const started = Date.now();
    const error = await acquireLock(file, { what: 'the store', waitMs: 300 }).catch((e: unknown) => e);
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    expect((error as Error).message).toMatch(/after waiting 0 s$/);
    second.release();
  });

});

describe('acquireLock, when a lock was left stale', () => {
  it('recovers the lock of a process that has ended', async () => {
    const file = path.join(tempDir('fleetctl-lock-'), 'store.lock');
    writeFileSync(file, JSON.stringify({ pid: endedPid(), hostname: os.hostname(), acquired_at: '2026-01-01T00:00:00Z', purpose: 'config set', token: 'dead' }));
    const lock = await acquireLock(file, { what: 'the store', waitMs: 0 });
    expect(readLockOwner(file)?.pid).toBe(process.pid);
    lock.release();
  });

  it('recovers a lock its live holder stopped refreshing (another host, or a reused pid)', async () => {
    const file = path.join(tempDir('fleetctl-lock-'), 'store.lock');
    writeFileSync(file, JSON.stringify({ pid: process.ppid, hostname: 'elsewhere', acquired_at: '2026-01-01T00:00:00Z', purpose: 'x', token: 'old' }));
    await expect(acquireLock(file, { what: 'the store', waitMs: 0, staleMs: 60_000 })).rejects.toThrow(/in use by process \d+ on elsewhere/);
    const old = new Date(Date.now() - 120_000);
    utimesSync(file, old, old);
    const lock = await acquireLock(file, { what: 'the store', waitMs: 0, staleMs: 60_000 });
    lock.release();
  });

  it('recovers an empty lock file (a crash between creating and writing it) once it is old', async () => {
    const file = path.join(tempDir('fleetctl-lock-'), 'store.lock');
    writeFileSync(file, '');
    await expect(acquireLock(file, { what: 'the store', waitMs: 0 })).rejects.toThrow(/in use by another process/);
    const old = new Date(Date.now() - 10_000);
    utimesSync(file, old, old);
    (await acquireLock(file, { what: 'the store', waitMs: 0 })).release();
  });

  it('an empty or unparseable lock file is recovered within a second, with one line saying so', async () => {
    for (const content of ['', '{"pid": 12', 'not json at all']) {
      const file = path.join(tempDir('fleetctl-lock-'), 'store.lock');
      writeFileSync(file, content);
      const notices: string[] = [];
      const started = Date.now();
      const lock = await acquireLock(file, { what: 'the store', waitMs: 30_000, notice: (line) => notices.push(line) });
      expect(Date.now() - started).toBeLessThan(1_000);
      expect(notices).toEqual([`Recovered the lock ${file}: it was empty or unreadable (its holder stopped while taking it).`]);
      lock.release();
    }
  });

  it('a live pid that is not the process that took the lock (pid reuse) is recovered within a second', async () => {
    const dir = tempDir('fleetctl-lock-');
    const sleeper = spawn('sleep', ['30'], { stdio: 'ignore' });
    try {
      const records = [
        // written by fleetctl: the start time it records is not the live process's
        { pid: process.ppid, process_started: '1', hostname: os.hostname(), acquired_at: '2026-01-01T00:00:00Z', purpose: 'config set', token: 'a' },
        // recording none (by hand, or an older fleetctl): the process with that pid is not fleetctl
        { pid: sleeper.pid, hostname: os.hostname(), acquired_at: '2026-01-01T00:00:00Z', purpose: 'config set', token: 'b' },
      ];
      for (const [i, record] of records.entries()) {
        const file = path.join(dir, `store-${i}.lock`);
        writeFileSync(file, JSON.stringify(record));
        const notices: string[] = [];
        const started = Date.now();
        const lock = await acquireLock(file, { what: 'the store', waitMs: 30_000, notice: (line) => notices.push(line) });
        expect(Date.now() - started).toBeLessThan(1_000);
        expect(notices).toEqual([`Recovered the lock ${file}: process ${record.pid} is no longer the fleetctl that took it.`]);
        lock.release();
      }
    } finally {
      sleeper.kill();
    }
  });

});

describe('acquireLock among live holders', () => {
  it('a wait longer than a second says once what it waits for and who holds it', async () => {
    const file = path.join(tempDir('fleetctl-lock-'), 'store.lock');
    const first = await acquireLock(file, { what: 'the store', waitMs: 0, purpose: 'config set' });
    const notices: string[] = [];
    setTimeout(() => first.release(), 1_600);
    const second = await acquireLock(file, { what: 'the store', waitMs: 10_000, notice: (line) => notices.push(line) });
    second.release();
    expect(notices).toEqual([expect.stringMatching(new RegExp(`^Waiting for the store: ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is held by process ${process.pid} \\(config set, since .+\\) \\(up to 10 s\\)\\.\\.\\.$`))]);
  });

  it('never lets a holder remove a lock that was taken from it as stale', async () => {
    const file = path.join(tempDir('fleetctl-lock-'), 'store.lock');
    const mine = await acquireLock(file, { what: 'the store', waitMs: 0 });
    writeFileSync(file, JSON.stringify({ pid: process.pid, hostname: os.hostname(), acquired_at: 'now', purpose: 'other', token: 'theirs' }));
    mine.release();
    expect(readLockOwner(file)?.token).toBe('theirs');
  });

  it('lets exactly one of many processes at a time hold it: no increment is lost', async () => {
    const dir = tempDir('fleetctl-lock-');
    const counter = path.join(dir, 'counter');
    writeFileSync(counter, '0');
    // the children run the module itself, bundled: they are plain node processes
    const module = path.join(dir, 'file-lock.mjs');
    buildSync({ entryPoints: [path.resolve('src/io/file-lock.ts')], bundle: true, platform: 'node', format: 'esm', outfile: module, logLevel: 'silent' });
    const script = `
      const { withLock } = await import(${JSON.stringify(module)});
      const fs = await import('node:fs');
      for (let i = 0; i < 10; i++) {
        await withLock(${JSON.stringify(path.join(dir, 'counter.lock'))}, { what: 'the counter', waitMs: 60000 }, async () => {
          const value = Number(fs.readFileSync(${JSON.stringify(counter)}, 'utf8'));
          await new Promise((r) => setTimeout(r, 1));
          fs.writeFileSync(${JSON.stringify(counter)}, String(value + 1));
        });
      }`;
    const codes = await Promise.all(
      Array.from({ length: 8 }, () => new Promise<number | null>((resolve) => {
        const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: 'inherit' });
        child.on('exit', resolve);
      })),
    );
    expect(codes).toEqual(Array(8).fill(0));
    expect(readFileSync(counter, 'utf8')).toBe('80');
    expect(existsSync(path.join(dir, 'counter.lock'))).toBe(false);
  }, 60_000);

  it('a folder that does not exist is the caller\'s to make: said in one line', async () => {
    const file = path.join(tempDir('fleetctl-lock-'), 'missing', 'store.lock');
    await expect(acquireLock(file, { what: 'the store', waitMs: 0 })).rejects.toThrow(`cannot create the lock file ${file}: ENOENT`);
  });

  it('withLock releases when the work throws', async () => {
    const file = path.join(tempDir('fleetctl-lock-'), 'store.lock');
    await expect(withLock(file, { what: 'the store', waitMs: 0 }, () => { throw new Error('boom'); })).rejects.toThrow('boom');
    expect(existsSync(file)).toBe(false);
  });
});
