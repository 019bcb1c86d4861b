// The state file's change log (STATE.changes): what the API changed since the state file was last written whole,
// one JSON line per change, on the disk (written and fsynced) before the request that made it is answered. Writing
// the whole state for every change would cost a bulk run of n devices n whole states; a line costs one change.
// Its first line names the state file it extends by the digest of its text: a log left from before the state was
// last written whole (a crash between the two writes) no longer matches and is ignored, its changes being in the
// state already. Every change sets one member, so reading a log twice gives the same state as reading it once.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { CorruptStateError } from './state-errors.js';

/** One member of the saved state set (or removed, without a value), named by its path from the state's root. */
export interface StateChange {
  path: (string | number)[];
  value?: unknown;
}

/** Where a store reports each change it makes to what the state file keeps. */
export type StateChangeSink = (change: StateChange) => void;

export const ignoreChange: StateChangeSink = () => undefined;

export const changeLogOf = (stateFile: string): string => `${stateFile}.changes`;

export const stateDigest = (text: string): string => createHash('sha256').update(text).digest('hex');

export interface ChangeLogContent {
  changes: StateChange[];
  /** Its size, when it extends the state file as it is and ends with a whole line: appended to as it is. */
  appendableBytes: number | null;
}

/** The changes the log holds over the state file of `digest` (none when it is missing or older than the state file). */
export async function readChangeLog(stateFile: string, digest: string): Promise<ChangeLogContent> {
  const file = changeLogOf(stateFile);
  let text: string;
  try {
    text = await fs.promises.readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { changes: [], appendableBytes: null };
    throw new CorruptStateError(file, (err as Error).message, `move it away (mv ${file} ${file}.bak); the changes it holds are then lost`);
  }
  const lines = text.split('\n');
  // a last line without its newline was being written when the sandbox stopped: never acknowledged, so dropped
  const torn = lines.pop() !== '';
  if (lines.length === 0 || lineOf(lines[0]!)?.extends !== digest) return { changes: [], appendableBytes: null };
  const changes = lines.slice(1).map((line, i) => {
    const change = lineOf(line);
    if (!isChange(change)) throw new CorruptStateError(file, `line ${i + 2} is not a change`, `move it away (mv ${file} ${file}.bak); the changes it holds are then lost`);
    return change;
  });
  return { changes, appendableBytes: torn ? null : Buffer.byteLength(text) };
}

function lineOf(line: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(line);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

function isChange(value: Record<string, unknown> | null): value is Record<string, unknown> & StateChange {
  return value !== null && Array.isArray(value.path) && value.path.length > 0 && value.path.every((p) => typeof p === 'string' || typeof p === 'number');
}

/** Applies a change to a state read from its file (plain JSON); members on the way that are missing are made. */
export function applyChange(state: Record<string, unknown>, change: StateChange): void {
  let target: Record<string | number, unknown> = state;
  for (const step of change.path.slice(0, -1)) {
    let next = own(target, step);
    if (!next || typeof next !== 'object') {
      next = {};
      define(target, step, next);
    }
    target = next as Record<string | number, unknown>;
  }
  const last = change.path[change.path.length - 1]!;
  if (change.value === undefined) delete target[last];
  else define(target, last, change.value);
}

const own = (target: object, key: string | number): unknown => (Object.hasOwn(target, key) ? (target as Record<string | number, unknown>)[key] : undefined);

// as a plain member even when it is named __proto__: a key comes from a client (an idempotency key, a token)
function define(target: object, key: string | number, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** Appends changes to the log, each batch on the disk before it returns. Opened on the first batch after a whole write. */
export class ChangeLogWriter {
  private handle: fs.promises.FileHandle | null = null;

  /** `bytes`: the log's size when it may be appended to as it is (read at start); null: it is started afresh. */
  constructor(
    private readonly stateFile: string,
    private digest: string | null,
    public bytes: number | null,
  ) {}

  /** The state file was written whole (its text's digest): the log starts afresh over it. */
  async restart(digest: string): Promise<void> {
    await this.close();
    this.digest = digest;
    this.bytes = null;
    // the old log no longer matches the state file: gone, or ignored if it cannot be removed
    await fs.promises.unlink(changeLogOf(this.stateFile)).catch(() => undefined);
  }

  async append(changes: StateChange[]): Promise<void> {
    if (this.digest === null) throw new Error('the change log has no state file to extend');
    let text = changes.map((c) => `${JSON.stringify(c)}\n`).join('');
    const fresh = this.bytes === null;
    if (fresh) text = `${JSON.stringify({ extends: this.digest })}\n${text}`;
    const data = Buffer.from(text);
    try {
      this.handle ??= await fs.promises.open(changeLogOf(this.stateFile), fresh ? 'w' : 'a', 0o600);
      await this.handle.write(data);
      await this.handle.datasync();
    } catch (err) {
      // a part of the batch may be written (a full disk): the next save writes the state whole, and a new log after it
      await this.close();
      this.bytes = null;
      this.digest = null;
      throw err;
    }
    this.bytes = (this.bytes ?? 0) + data.length;
  }

  get canAppend(): boolean {
    return this.digest !== null;
  }

  async close(): Promise<void> {
    const handle = this.handle;
    this.handle = null;
    await handle?.close().catch(() => undefined);
  }
}
