// A full disk (ENOSPC, EDQUOT) wherever fleetctl writes: one error class and exit code naming the file, no partial
// lock left behind, and a journal whose last line was cut short repaired before anything is appended after it.
// The failures are injected, as the system answers them on a full disk: node:fs's writes of chosen files fail
// (patched on node:fs itself and synced into its ESM exports, so src/ sees them as it imports them; restored after
// each test: the suite's files share their modules, vitest.config.ts), and conf's write of the config store.
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import Conf from 'conf';
import { DiskFullError, diskFullOf, ExitCode } from '../../src/errors.js';
import { Journal, type JournalHeader } from '../../src/bulk/journal.js';
import { acquireLock } from '../../src/io/file-lock.js';
import { writeFileAtomically } from '../../src/io/atomic-file.js';
import { openConfigStore } from '../../src/config/store.js';
import { recentRuns } from '../../src/commands/status/recent-runs.js';
import { tempDir } from '../support/temp-dir.js';
import { bulkCommandRun } from '../../src/commands/devices/command-run.js';
import { REBOOT } from '../../src/commands/devices/device-command.js';
import { fakeDeps } from '../commands/fake-deps.js';

const noSpace = (code: string, call: string, file?: string) => Object.assign(new Error(`${code}: no space left on device, ${call}`), { code, syscall: call, path: file });

const real = { appendFileSync: fs.appendFileSync, openSync: fs.openSync, writeSync: fs.writeSync, writeFile: fs.promises.writeFile };
const realConfWrite = (Conf.prototype as unknown as { _write: unknown })._write;

/** From now on, writes of the files `full` picks fail with `code`, until the test ends. */
function fillDisk(full: (file: string) => boolean, code: 'ENOSPC' | 'EDQUOT' = 'ENOSPC'): void {
  const opened = new Map<number, string>();
  const check = (file: unknown, call: string) => {
    if (typeof file === 'string' && full(file)) throw noSpace(code, call, file);
  };
  Object.assign(fs, {
    appendFileSync: (file: fs.PathOrFileDescriptor, ...rest: unknown[]) => {
      check(file, 'write');
      return (real.appendFileSync as (...args: unknown[]) => void)(file, ...rest);
    },
    // the descriptor of a file opened here, so that a write to it is known by its file
    openSync: (file: fs.PathLike, ...rest: unknown[]) => {
      const fd = (real.openSync as (...args: unknown[]) => number)(file, ...rest);
      opened.set(fd, String(file));
      return fd;
    },
    writeSync: (fd: number, ...rest: unknown[]) => {
      check(opened.get(fd), 'write');
      return (real.writeSync as (...args: unknown[]) => number)(fd, ...rest);
    },
  });
  fs.promises.writeFile = ((file: fs.PathLike, ...rest: unknown[]) => {
    try {
      check(String(file), 'write');
    } catch (error) {
      return Promise.reject(error);
    }
    return (real.writeFile as (...args: unknown[]) => Promise<void>)(file, ...rest);
  }) as typeof fs.promises.writeFile;
  syncBuiltinESMExports();
}

/** conf's write of the store fails (conf writes through its own bound copies of node:fs's calls). */
function fillConfDisk(): void {
  (Conf.prototype as unknown as { _write: unknown })._write = () => {
    throw noSpace('ENOSPC', 'write');
  };
}

afterEach(() => {
  Object.assign(fs, { appendFileSync: real.appendFileSync, openSync: real.openSync, writeSync: real.writeSync });
  fs.promises.writeFile = real.writeFile;
  syncBuiltinESMExports();
  (Conf.prototype as unknown as { _write: unknown })._write = realConfWrite;
});

const RUN = '20261127T110000Z-0a1b2c';
const header: JournalHeader = { type: 'run', version: 1, run_id: RUN, command: 'reboot', key_base: 'k', targets: ['HW-1', 'HW-2', 'HW-3'], created_at: new Date().toISOString() };
const line = (record: object) => `${JSON.stringify(record)}\n`;
/** As Journal.append writes it: the result's members first. */
const result = (hw: string, status: string) => line({ hardware_id: hw, status, http_status: 202, type: 'result', at: new Date().toISOString() });

describe('a full disk', () => {
  it('is read from any failed write Node reports (main.ts says it so, wherever it came from), and from nothing else', () => {
    const raw = noSpace('EDQUOT', 'open', '/var/cache/fleetctl/x.json');
    expect(diskFullOf(raw)?.message).toBe('cannot write /var/cache/fleetctl/x.json: no space left on device (EDQUOT)');
    expect(diskFullOf(raw, '/other')?.file).toBe('/other');
    expect(diskFullOf(Object.assign(new Error('EACCES: permission denied'), { code: 'EACCES' }))).toBeUndefined();
    expect(diskFullOf(undefined)).toBeUndefined();
  });

  it('stops a journal append as DiskFullError (exit 15) naming the journal, for ENOSPC and EDQUOT', async () => {
    const file = path.join(tempDir('fleetctl-full-'), 'run.ndjson');
    const journal = await Journal.create(file, header);
    for (const code of ['ENOSPC', 'EDQUOT'] as const) {
      fillDisk((f) => f === file, code);
      let thrown: unknown;
      try {
        journal.append({ hardware_id: 'HW-1', status: 'accepted' } as never, new Date());
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(DiskFullError);
      expect((thrown as DiskFullError).exitCode).toBe(ExitCode.diskFull);
      expect((thrown as DiskFullError).message).toBe(`cannot write ${file}: no space left on device (${code})`);
    }
    journal.close();
  });

  it('leaves no empty lock file when the lock cannot be written, and says so as a full disk, not a conflict', async () => {
    const dir = tempDir('fleetctl-full-');
    const file = path.join(dir, 'config.json.lock');
    fillDisk((f) => f === file);
    const taking = acquireLock(file, { what: 'the config store', waitMs: 0 });
    await expect(taking).rejects.toBeInstanceOf(DiskFullError);
    await expect(taking).rejects.toThrow(`cannot write ${file}: no space left on device (ENOSPC)`);
    expect(fs.readdirSync(dir)).toEqual([]);
    fillDisk(() => false);
    const lock = await acquireLock(file, { what: 'the config store', waitMs: 0 });
    lock.release();
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it('leaves no .lock.break file when a stale lock cannot be broken for want of space', async () => {
    const dir = tempDir('fleetctl-full-');
    const file = path.join(dir, 'state.lock');
    fs.writeFileSync(file, '');
    fs.utimesSync(file, new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
    fillDisk((f) => f.startsWith(dir));
    await expect(acquireLock(file, { what: 'the sandbox state', waitMs: 0 })).rejects.toBeInstanceOf(DiskFullError);
    expect(fs.readdirSync(dir)).toEqual(['state.lock']);
  });

});

describe('a full disk, for atomic replaces and the config store', () => {
  it('fails an atomic replace as DiskFullError naming the file replaced, its temporary removed', async () => {
    const dir = tempDir('fleetctl-full-');
    const file = path.join(dir, 'cache.json');
    fillDisk((f) => f.startsWith(dir), 'EDQUOT');
    await expect(writeFileAtomically(file, '{}')).rejects.toThrow(`cannot write ${file}: no space left on device (EDQUOT)`);
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it('fails an atomic replace whose folder cannot be made for want of space as DiskFullError naming the file', async () => {
    const dir = tempDir('fleetctl-full-');
    const file = path.join(dir, 'cache', 'document.json');
    const realMkdir = fs.mkdirSync;
    fs.mkdirSync = ((folder: fs.PathLike) => {
      throw noSpace('ENOSPC', 'mkdir', String(folder));
    }) as typeof fs.mkdirSync;
    syncBuiltinESMExports();
    try {
      await expect(writeFileAtomically(file, '{}')).rejects.toThrow(`cannot write ${file}: no space left on device (ENOSPC)`);
    } finally {
      fs.mkdirSync = realMkdir;
      syncBuiltinESMExports();
    }
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it('fails a config store write as DiskFullError ("no space left", not "check the permissions"), its lock released', async () => {
    const dir = tempDir('fleetctl-full-');
    const store = await openConfigStore(dir);
    await store.update((data) => void (data.profiles.default = { client_id: 'before' }));
    fillConfDisk();
    const change = store.update((data) => void (data.profiles.default = { client_id: 'after' }));
    await expect(change).rejects.toBeInstanceOf(DiskFullError);
    await expect(change).rejects.toThrow(`cannot write ${path.join(dir, 'config.json')}: no space left on device (ENOSPC)`);
    expect(fs.existsSync(path.join(dir, 'config.json.lock'))).toBe(false);
    expect(store.read().profiles.default).toEqual({ client_id: 'before' });
  });
});

describe('a bulk run on a disk that fills up', () => {
  it('stops at the journal append that fails, exit 15 naming the journal, with its resume line', async () => {
    const dir = tempDir('fleetctl-full-');
    const f = fakeDeps({ configDir: dir, answers: [{ method: 'POST', path: '/v1/devices/HW-1/commands/reboot', status: 202, body: { id: 'c', hardware_id: 'HW-1', command: 'reboot', status: 'accepted', idempotency_key: 'k', accepted_at: 'x' } }] });
    // the header and the line that sending begins are written, then the disk is full
    fillDisk((f) => f.endsWith('.ndjson') && fs.existsSync(f) && fs.readFileSync(f, 'utf8').includes('"type":"sending"'));
    const error = await bulkCommandRun(f.deps, REBOOT, { source: { ids: ['HW-1', 'HW-2'] }, yes: true, dryRun: false, maxDevices: 100, concurrency: 1 }).catch((e: unknown) => e);
    const runId = /Run (\S+):/.exec(f.io.stderr())![1]!;
    const file = path.join(dir, 'runs', `${runId}.ndjson`);
    expect(error).toBeInstanceOf(DiskFullError);
    expect((error as DiskFullError).exitCode).toBe(15);
    expect((error as DiskFullError).message).toBe(`cannot write ${file}: no space left on device (ENOSPC)`);
    expect(f.io.stderr()).toMatch(new RegExp(`Stopped after \\d of 2 devices: nothing more was sent\\. Once this is fixed, resume with: fleetctl devices reboot --resume ${runId} --yes`));
    expect(f.sent.map((r) => r.path)).toEqual(['/v1/devices/HW-1/commands/reboot']);
    expect(fs.existsSync(`${file}.lock`)).toBe(false);
  });

  it('full before the line that sending begins: nothing is sent, exit 15, and that journal does not block reusing its --journal', async () => {
    const dir = tempDir('fleetctl-full-');
    const file = path.join(dir, 'night.ndjson');
    const f = fakeDeps({ configDir: dir });
    // the header is written, then the disk is full
    fillDisk((name) => name === file && (fs.statSync(name, { throwIfNoEntry: false })?.size ?? 0) > 0);
    const options = { source: { ids: ['HW-1', 'HW-2'] }, yes: true, dryRun: false, maxDevices: 100, concurrency: 1, journal: file };
    const error = await bulkCommandRun(f.deps, REBOOT, options).catch((e: unknown) => e);
    expect(error).toMatchObject({ exitCode: 15, message: `cannot write ${file}: no space left on device (ENOSPC)` });
    expect(f.sent).toEqual([]);
    expect(fs.readFileSync(file, 'utf8').trim().split('\n')).toHaveLength(1);
    Object.assign(fs, { appendFileSync: real.appendFileSync, openSync: real.openSync, writeSync: real.writeSync });
    syncBuiltinESMExports();
    const next = fakeDeps({ configDir: dir, answers: ['HW-1', 'HW-2'].map((hw) => ({ method: 'POST', path: `/v1/devices/${hw}/commands/reboot`, status: 202, body: { id: `c-${hw}`, hardware_id: hw, command: 'reboot', status: 'accepted', idempotency_key: 'k', accepted_at: 'x' } })) });
    await bulkCommandRun(next.deps, REBOOT, options);
    expect(next.io.stderr()).toContain(`Replaced the journal ${file}: it held only its header: its run sent nothing, left by a run killed as it started.`);
    expect(next.sent.map((r) => r.path)).toEqual(['/v1/devices/HW-1/commands/reboot', '/v1/devices/HW-2/commands/reboot']);
  });
});

describe('a journal whose last line was cut short', () => {
  it('is repaired on resume: the fragment dropped before anything is appended, its device pending again, said in one line', async () => {
    const file = path.join(tempDir('fleetctl-torn-'), 'run.ndjson');
    const whole = line(header) + result('HW-1', 'accepted');
    fs.writeFileSync(file, whole + result('HW-2', 'accepted').slice(0, 40));
    const notices: string[] = [];
    const journal = await Journal.open(file, RUN, (notice) => notices.push(notice));
    expect([...journal.results.keys()]).toEqual(['HW-1']);
    expect(fs.readFileSync(file, 'utf8')).toBe(whole);
    expect(notices).toHaveLength(1);
    expect(notices[0]).toContain(`Repaired the journal ${file}: dropped its last line`);
    expect(notices[0]).toContain('device HW-2');
    journal.append({ hardware_id: 'HW-2', status: 'replayed' } as never, new Date());
    journal.close();
    // the next resume reads every line: the appended one was not glued to the fragment
    const again = await Journal.open(file, RUN, (notice) => notices.push(notice));
    expect(again.results.get('HW-2')?.status).toBe('replayed');
    expect(notices).toHaveLength(1);
    again.close();
  });

  it('keeps a whole last record that lacks only its newline, and ends it', async () => {
    const file = path.join(tempDir('fleetctl-torn-'), 'run.ndjson');
    const text = line(header) + result('HW-1', 'accepted').trimEnd();
    fs.writeFileSync(file, text);
    const journal = await Journal.open(file, RUN);
    expect(journal.results.get('HW-1')?.status).toBe('accepted');
    expect(fs.readFileSync(file, 'utf8')).toBe(`${text}\n`);
    journal.close();
  });

  it('is counted by status as the resume reads it: the fragment is unknown, its device pending', async () => {
    const config = tempDir('fleetctl-torn-config-');
    const file = path.join(config, 'runs', `${RUN}.ndjson`);
    fs.mkdirSync(path.dirname(file));
    fs.writeFileSync(file, line(header) + result('HW-1', 'accepted') + result('HW-2', 'accepted').slice(0, 50));
    const { elsewhere } = await recentRuns(config, 0, undefined);
    expect(elsewhere[0]?.runs[0]?.results).toEqual({ accepted: 1, pending: 2 });
  });
});

describe('a journal left empty by a killed start', () => {
  it('is replaced by a new run given the same --journal, in one line, when its run sent nothing; any other is still refused', async () => {
    const file = path.join(tempDir('fleetctl-empty-'), 'night.ndjson');
    for (const left of ['', JSON.stringify(header).slice(0, 30)]) {
      fs.writeFileSync(file, left);
      const notices: string[] = [];
      const journal = await Journal.create(file, { ...header, run_id: 'next' }, (notice) => notices.push(notice));
      expect(JSON.parse(fs.readFileSync(file, 'utf8')).run_id).toBe('next');
      expect(notices).toEqual([`Replaced the journal ${file}: ${left === '' ? 'it was empty' : 'it held not even a whole header'}, left by a run killed as it started.`]);
      journal.close();
    }
    // a whole header and no line after it, from a fleetctl that writes the line that sending begins: nothing was sent
    const marking = { ...header, marks_sending: true as const };
    fs.writeFileSync(file, line(marking));
    const notices: string[] = [];
    (await Journal.create(file, { ...header, run_id: 'next' }, (notice) => notices.push(notice))).close();
    expect(notices).toEqual([`Replaced the journal ${file}: it held only its header: its run sent nothing, left by a run killed as it started.`]);
    // its run may have sent commands it did not live to journal (it began sending; or an older fleetctl, which never
    // said): only its --resume replays them
    const sending = line({ type: 'sending', at: new Date().toISOString() });
    for (const left of [line(header), line(header) + result('HW-1', 'accepted'), line(marking) + sending, line(marking) + sending.slice(0, 10)]) {
      fs.writeFileSync(file, left);
      await expect(Journal.create(file, { ...header, run_id: 'next' })).rejects.toThrow(`journal ${file} already exists`);
      expect(fs.readFileSync(file, 'utf8')).toBe(left);
    }
  });

  it('is not replaced while the run that wrote it still holds its lock', async () => {
    const file = path.join(tempDir('fleetctl-empty-'), 'night.ndjson');
    const live = await Journal.create(file, header);
    // nothing sent yet, but the run is alive: its lock refuses the new run, naming the process
    await expect(Journal.create(file, { ...header, run_id: 'next' })).rejects.toThrow(`the journal ${file} is in use by process ${process.pid}`);
    live.markSending(new Date());
    await expect(Journal.create(file, { ...header, run_id: 'next' })).rejects.toThrow(`journal ${file} already exists`);
    expect(JSON.parse(fs.readFileSync(file, 'utf8').split('\n')[0]!).run_id).toBe(RUN);
    live.close();
  });
});
