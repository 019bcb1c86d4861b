// The one cross-process lock of fleetctl: a file created with O_CREAT|O_EXCL ('wx'), which exactly one process can
// create, holding who took it. Scripts and CI jobs run many fleetctl at once with one home directory; whatever
// they share and change (the config store, the embedded sandbox's state, a bulk run's journal) is changed only
// by the process holding its lock. Node's built-ins suffice: proper-lockfile, the usual library, records no pid,
// so it could not say which process holds a lock, and judges staleness by time alone.
//
// A lock left by a process that crashed is recovered: on this host when its pid no longer runs or is now another
// process (pid reuse: its start time differs from the one the lock records, or a lock without one names a process
// that is not fleetctl), when the file is empty or unreadable (a crash between creating and writing it), anywhere
// when its holder stopped refreshing it (a live holder touches it every staleMs / 3). Breaking a stale lock is
// itself done under a short-lived second lock, so two waiters never both break it and then both take it. Each
// recovery is one line to the caller's notice, and so is a wait past a second: what it waits for, and who holds it.
// A wait passes on the injected clock, its pauses chosen by the one retry decision (shared/retry.ts); the age of a
// lock file is its modification time against the system's, since the file system keeps that time.
import { nodeCrypto } from '../shared/node-crypto.js';
import { closeSync, openSync, readFileSync, statSync, unlinkSync, utimesSync, writeSync } from 'node:fs';
import os from 'node:os';
import { diskFullOf, ExitCode, FleetctlError } from '../errors.js';
import { decideRetry, type RetryPolicy } from '../shared/retry.js';
import { systemClock, type Clock } from './clock.js';
import { isHolder, isRunning, processStartOf } from './lock-holder.js';

export interface LockOwner {
  pid: number;
  hostname: string;
  /** ISO time the lock was taken. */
  acquired_at: string;
  /** What the holder does with it ("config set", "run 3f2a…"): shown to the process that has to wait. */
  purpose: string;
  /** Tells a lock apart from a later one of the same pid, so a holder never removes another's lock. */
  token: string;
  /** When the holder process started (Linux: /proc/PID/stat), so a later process given the same pid is told apart. */
  process_started?: string;
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
  /** One line when a stale lock is recovered, and when the wait passes noticeAfterMs (stderr, through the io layer). */
  notice?: (line: string) => void;
  /** How long a wait goes unsaid (default a second); a lock normally held for milliseconds says so sooner. */
  noticeAfterMs?: number;
  /** What the wait passes on (default the system clock). */
  clock?: Clock;
  /** The jitter of each pause, from [0, 1) (default Math.random). */
  random?: () => number;
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
/** A lock file is written as it is created, in one call: empty or unreadable for this long, its writer died. */
const UNREADABLE_STALE_MS = 500;
/** A wait longer than this says what it waits for (unless the caller says sooner). */
const WAIT_NOTICE_MS = 1_000;
/**
 * Pauses between attempts at a busy lock: short and jittered, since many waiters for a lock held milliseconds must
 * not retry in step; as many as the wait allows (its end is the caller's waitMs, not a count of attempts).
 */
export const LOCK_WAIT_POLICY: Readonly<RetryPolicy> = { maxRetries: Infinity, maxRetryWaitMs: 0, baseDelayMs: 5, maxDelayMs: 100, jitter: true };
const held = new Set<() => void>();
let releasedAtExit = false;

/** Takes the lock at `file`, waiting up to opts.waitMs for its holder; throws LockBusyError when it cannot. */
export async function acquireLock(file: string, opts: LockOptions): Promise<HeldLock> {
  const staleMs = opts.staleMs ?? DEFAULT_STALE_MS;
  const clock = opts.clock ?? systemClock;
  const owner: LockOwner = {
    pid: process.pid,
    hostname: os.hostname(),
    acquired_at: clock.now().toISOString(),
    purpose: opts.purpose ?? opts.what,
    token: nodeCrypto().randomBytes(8).toString('hex'),
    process_started: processStartOf(process.pid),
  };
  const started = clock.now().getTime();
  let told = false;
  for (let retries = 0; ; retries++) {
    if (tryCreate(file, owner)) return holdLock(file, owner.token, staleMs);
    const current = readLockOwner(file);
    const stale = staleness(file, current, staleMs);
    // removed: take it at once; not (another waiter is breaking it, or it cannot be removed): wait as for a live one
    if (stale && breakStaleLock(file, current)) {
      opts.notice?.(`Recovered the lock ${file}: ${stale}.`);
      continue;
    }
    const waited = clock.now().getTime() - started;
    if (waited >= opts.waitMs) throw busy(file, current ?? (await ownerOnceWritten(file, clock)), opts);
    if (!told && waited >= (opts.noticeAfterMs ?? WAIT_NOTICE_MS)) {
      told = true;
      opts.notice?.(`Waiting for ${opts.what}: ${file} is held by ${holderOf(current)} (up to ${Math.round(opts.waitMs / 1000)} s)...`);
    }
    const decision = decideRetry({ retries }, LOCK_WAIT_POLICY, opts.random);
    if (!decision.retry) throw busy(file, current ?? (await ownerOnceWritten(file, clock)), opts);
    // the last pause ends with the wait, for one more attempt then
    await clock.sleep(Math.min(decision.delayMs, opts.waitMs - waited));
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

/** How long a refusal reads again a lock that says no holder yet: its holder writes who it is right after creating it. */
const OWNER_WRITE_GRACE = { reads: 10, everyMs: 10 };

/**
 * The holder of a lock read as empty (created, its holder not yet written: a loaded machine can hold a process
 * between the two), read again for a moment, so that a refusal names it. Undefined when it never says.
 */
async function ownerOnceWritten(file: string, clock: Clock): Promise<LockOwner | undefined> {
  for (let read = 0; read < OWNER_WRITE_GRACE.reads; read++) {
    await clock.sleep(OWNER_WRITE_GRACE.everyMs);
    const owner = readLockOwner(file);
    if (owner) return owner;
  }
  return undefined;
}

function tryCreate(file: string, owner: LockOwner): boolean {
  let descriptor: number;
  try {
    descriptor = openSync(file, 'wx', 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw cannotCreate(file, error);
  }
  // created, so ours to remove: a lock that cannot be written (a full disk) leaves no empty file behind
  try {
    const text = JSON.stringify(owner);
    // a regular file takes fewer bytes than given only when the disk is full
    if (writeSync(descriptor, text) < Buffer.byteLength(text)) throw Object.assign(new Error('short write'), { code: 'ENOSPC' });
  } catch (error) {
    closeSync(descriptor);
    unlinkQuietly(file);
    throw cannotCreate(file, error);
  }
  closeSync(descriptor);
  return true;
}

function cannotCreate(file: string, error: unknown): FleetctlError {
  // its folder is the caller's to make, as for the file it guards
  return diskFullOf(error, file) ?? new LockBusyError(file, undefined, `cannot create the lock file ${file}: ${(error as Error).message}`, 'check that its folder exists and that you may write to it');
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

/** Why the lock is stale (for the line that says it was recovered), or undefined when it is not. */
function staleness(file: string, owner: LockOwner | undefined, staleMs: number): string | undefined {
  const age = ageOf(file);
  if (age === undefined) return undefined; // gone meanwhile: the next attempt may simply take it
  // unreadable: a holder that crashed between creating the file and writing it, or one writing it right now
  if (!owner) return age > UNREADABLE_STALE_MS ? 'it was empty or unreadable (its holder stopped while taking it)' : undefined;
  if (owner.hostname === os.hostname()) {
    if (!isRunning(owner.pid)) return `process ${owner.pid}, which took it, no longer runs`;
    if (!isHolder(owner)) return `process ${owner.pid} is no longer the fleetctl that took it`;
  }
  return age > staleMs ? `${holderOf(owner)} has not refreshed it for ${Math.round(age / 1000)} s` : undefined;
}

/** Removes the stale lock seen as `seen`, unless another waiter already replaced it with a live one; true if it did. */
function breakStaleLock(file: string, seen: LockOwner | undefined): boolean {
  const breaker = `${file}.break`;
  const me: LockOwner = { pid: process.pid, hostname: os.hostname(), acquired_at: new Date().toISOString(), purpose: 'recovering a stale lock', token: nodeCrypto().randomBytes(8).toString('hex') };
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

function holderOf(owner: LockOwner | undefined): string {
  return owner ? `process ${owner.pid}${owner.hostname === os.hostname() ? '' : ` on ${owner.hostname}`} (${owner.purpose}, since ${owner.acquired_at})` : 'another process';
}

function busy(file: string, owner: LockOwner | undefined, opts: LockOptions): LockBusyError {
  const holder = holderOf(owner);
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
