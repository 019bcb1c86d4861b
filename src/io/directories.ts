// The one way fleetctl creates the directory a file goes in (config, journal, state, caches, downloads).
// Node's recursive mkdir loops for ever, at full CPU and deaf to signals, where mkdir answers ENOENT for a
// parent that does exist (under /proc or /sys): here each missing level is made once, and a refusal ends it.
import { mkdirSync, statSync } from 'node:fs';
import path from 'node:path';

/** The directory could not be made; `message` names the level that failed and why. */
export class DirectoryError extends Error {
  constructor(
    readonly directory: string,
    message: string,
    /** The system's code for a level that could not be made (ENOSPC: errors.ts diskFullOf reads it). */
    readonly code?: string,
  ) {
    super(message);
    this.name = 'DirectoryError';
  }
}

export interface DirectoryOptions {
  /** Mode of the levels created (before the umask). fleetctl's own files: 0o700; the user's (downloads): 0o777. */
  mode?: number;
}

/** Creates `directory` and its missing parents, level by level; nothing when it exists. */
export function ensureDirectory(directory: string, opts: DirectoryOptions = {}): void {
  const target = path.resolve(directory);
  const missing: string[] = [];
  for (let current = target; !isDirectory(current, target); current = path.dirname(current)) {
    missing.push(current);
    // The root always exists: this only ends a walk that something else made impossible.
    if (path.dirname(current) === current) throw new DirectoryError(target, `cannot create ${target}: no existing parent directory`);
  }
  for (const level of missing.reverse()) {
    try {
      mkdirSync(level, { mode: opts.mode ?? 0o700 });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EEXIST' && isDirectory(level, target)) continue; // made meanwhile by another process
      throw new DirectoryError(target, `cannot create ${level} (${describe(code, error)})`, code);
    }
  }
}

/** Creates the directory that `file` goes in. */
export function ensureParentDirectory(file: string, opts: DirectoryOptions = {}): void {
  ensureDirectory(path.dirname(path.resolve(file)), opts);
}

/** true for a directory, false when nothing is there; anything else (a file, no permission) is an error. */
function isDirectory(candidate: string, target: string): boolean {
  let stat;
  try {
    stat = statSync(candidate);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // ENOTDIR: a level above is a file; the walk up names it.
    if (code === 'ENOENT' || code === 'ENOTDIR') return false;
    throw new DirectoryError(target, `cannot create ${target}: ${candidate} cannot be read (${describe(code, error)})`);
  }
  if (!stat.isDirectory()) throw new DirectoryError(target, `cannot create ${target}: ${candidate} exists and is not a directory`);
  return true;
}

const REASONS: Record<string, string> = {
  ENOENT: 'the system refuses to create it there',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EROFS: 'read-only file system',
  ENOSPC: 'no space left on the device',
  ENOTDIR: 'a parent is not a directory',
};

function describe(code: string | undefined, error: unknown): string {
  if (code && REASONS[code]) return `${REASONS[code]}, ${code}`;
  return code ?? (error as Error).message;
}
