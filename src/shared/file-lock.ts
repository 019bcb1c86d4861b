// The one cross-process lock of fleetctl: a file created with O_CREAT|O_EXCL ('wx'), which exactly one process can
// create, holding who took it. Scripts and CI jobs run many fleetctl at once with one home directory; whatever
// they share and change (the config store, the embedded sandbox's state, a bulk run's journal) is changed only
// by the process holding its lock. Node's built-ins suffice: proper-lockfile, the usual library, records no pid,
// so it could not say which process holds a lock, and judges staleness by time alone.
//
// A lock left by a process that crashed is recovered: on this host when its pid no longer runs, anywhere when its
// holder stopped refreshing it (a live holder touches it every staleMs / 3). Breaking a stale lock is itself
// done under a short-lived second lock, so two waiters never both break it and then both take it.
import { randomBytes } from 'node:crypto';
import { readFileSync, statSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { ExitCode, FleetctlError } from '../errors.js';

export interface LockOwner {
  pid: number;
  hostname: string;
  /** ISO time the lock was taken. */
  acquired_at: string;
  /** What the holder does with it ("config set", "run 3f2a…"): shown to the process that has to wait. */
  purpose: string;
  /** Tells a lock apart from a later one of the same pid, so a holder never removes another's lock. */
  token: string;
}

export interface LockOptions {
  /** What the lock guards, for messages: "the config store", "run RUN_ID". */
  what: string;
  /** How long to wait for a busy lock: 0 refuses at once. */
  waitMs: number;
  /** What this process takes it for (recorded in the lock file). */
  purpose?: string;
  /** A lock its holder has not refreshed for this long is stale. */
  staleMs?: number;
}

export interface HeldLock {
  readonly file: string;
  /** Removes the lock if it is still ours; safe to call twice. */
  release(): void;
}

/** The lock could not be had in time: exit 6 (conflict), naming the lock file and who holds it. */
export class LockBusyError extends FleetctlError {
  readonly exitCode = ExitCode.conflict;
  override name = 'LockBusyError';

  constructor(
    readonly file: string,
    readonly owner: LockOwner | undefined,
    message: string,
    hint?: string,
  ) {
    super(message, hint);
  }
}

const DEFAULT_STALE_MS = 30_000;
/** A breaker lock is held for a few file operations: one older than this was left by a crash. */
const BREAKER_STALE_MS = 5_000;
const held = new Set<() => void>();
let releasedAtExit = false;

/** Takes the lock at `file`, waiting up to opts.waitMs for its holder; throws LockBusyError when it cannot. */
export async function acquireLock(file: string, opts: LockOptions): Promise<HeldLock> {
  const staleMs = opts.staleMs ?? DEFAULT_STALE_MS;
  const owner: LockOwner = {
    pid: process.pid,
    hostname: os.hostname(),
    acquired_at: new Date().toISOString(),
    purpose: opts.purpose ?? opts.what,
    token: randomBytes(8).toString('hex'),
  };
  const deadline = Date.now() + opts.waitMs;
  for (let attempt = 0; ; attempt++) {
    if (tryCreate(file, owner)) return holdLock(file, owner.token, staleMs);
    const current = readLockOwner(file);
    // removed: take it at once; not (another waiter is breaking it, or it cannot be removed): wait as for a live one
    if (isStale(file, current, staleMs) && breakStaleLock(file, current)) continue;
    if (Date.now() >= deadline) throw busy(file, current, opts);
    // short and jittered: many waiters for a lock held milliseconds must not retry in step
    const pause = Math.min(100, 5 * 2 ** Math.min(attempt, 5)) * (0.5 + Math.random());
    await new Promise((resolve) => setTimeout(resolve, Math.min(pause, Math.max(1, deadline - Date.now()))));
  }
}

/** Runs `work` holding the lock; releases it however `work` ends. */
export async function withLock<T>(file: string, opts: LockOptions, work: () => T | Promise<T>): Promise<T> {
  const lock = await acquireLock(file, opts);
  try {
    return await work();
  } finally {
    lock.release();
  }
}

/** Who holds the lock at `file`, if anyone does and the file says so. */
export function readLockOwner(file: string): LockOwner | undefined {
  try {
    const value = JSON.parse(readFileSync(file, 'utf8')) as Partial<LockOwner>;
    return typeof value.pid === 'number' && typeof value.hostname === 'string' && typeof value.token === 'string' ? (value as LockOwner) : undefined;
  } catch {
    return undefined;
  }
}

function tryCreate(file: string, owner: LockOwner): boolean {
  try {
    writeFileSync(file, JSON.stringify(owner), { flag: 'wx', mode: 0o600 });
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    // its folder is the caller's to make, as for the file it guards
    throw new LockBusyError(file, undefined, `cannot create the lock file ${file}: ${(error as Error).message}`, 'check that its folder exists and that you may write to it');
  }
}

function holdLock(file: string, token: string, staleMs: number): HeldLock {
  // a long holder (an embedded sandbox serving a --follow) keeps its lock fresh; unref: it never keeps Node alive
  const refresh = setInterval(() => {
    const now = new Date();
    try {
      if (readLockOwner(file)?.token === token) utimesSync(file, now, now);
    } catch {
      // gone meanwhile: nothing to keep fresh (release says whose it is)
    }
  }, Math.max(1, Math.floor(staleMs / 3)));
  refresh.unref();
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    clearInterval(refresh);
    held.delete(release);
    if (readLockOwner(file)?.token === token) unlinkQuietly(file);
  };
  // a process that ends without releasing (process.exit on a second Ctrl-C) still leaves nothing behind
  if (!releasedAtExit) {
    releasedAtExit = true;
    process.once('exit', releaseAll);
  }
  held.add(release);
  return { file, release };
}

function releaseAll(): void {
  for (const release of [...held]) release();
}

function isStale(file: string, owner: LockOwner | undefined, staleMs: number): boolean {
  const age = ageOf(file);
  if (age === undefined) return false; // gone meanwhile: the next attempt may simply take it
  // unreadable: a holder that crashed between creating the file and writing it, or one writing it right now
  if (!owner) return age > BREAKER_STALE_MS;
  if (owner.hostname === os.hostname() && !isRunning(owner.pid)) return true;
  return age > staleMs;
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user
    return (error as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

/** Removes the stale lock seen as `seen`, unless another waiter already replaced it with a live one; true if it did. */
function breakStaleLock(file: string, seen: LockOwner | undefined): boolean {
  const breaker = `${file}.break`;
  const me: LockOwner = { pid: process.pid, hostname: os.hostname(), acquired_at: new Date().toISOString(), purpose: 'recovering a stale lock', token: randomBytes(8).toString('hex') };
  if (!tryCreate(breaker, me)) {
    const age = ageOf(breaker);
    if (age !== undefined && age > BREAKER_STALE_MS) unlinkQuietly(breaker);
    return false; // another waiter is breaking it
  }
  try {
    return readLockOwner(file)?.token === seen?.token && unlinkQuietly(file);
  } finally {
    unlinkQuietly(breaker);
  }
}

function busy(file: string, owner: LockOwner | undefined, opts: LockOptions): LockBusyError {
  const holder = owner ? `process ${owner.pid}${owner.hostname === os.hostname() ? '' : ` on ${owner.hostname}`} (${owner.purpose}, since ${owner.acquired_at})` : 'another process';
  const waited = opts.waitMs > 0 ? ` after waiting ${Math.round(opts.waitMs / 1000)} s` : '';
  return new LockBusyError(
    file,
    owner,
    `${opts.what} is in use by ${holder}: could not lock ${file}${waited}`,
    'try again when it has finished; a lock left by a process that has ended is recovered by itself',
  );
}

function ageOf(file: string): number | undefined {
  try {
    return Date.now() - statSync(file).mtimeMs;
  } catch {
    return undefined;
  }
}

/** Whether the file is gone now. */
function unlinkQuietly(file: string): boolean {
  try {
    unlinkSync(file);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT';
  }
}
