// Reading what the user hands us: stdin, or a file (where `-` means stdin). Every read is bounded and can be
// interrupted: a 5 GB file, /dev/zero, a FIFO nobody writes to or /proc/kmsg (which waits for the kernel)
// must end in a clear error, or stop at Ctrl-C, never hang or exhaust memory.
import { close, constants, fstat, open, read, statSync, type Stats } from 'node:fs';
import { promisify } from 'node:util';
import { Socket } from 'node:net';
import { UsageError } from '../errors.js';
import { quoteInput } from '../shared/terminal-text.js';

/** Far above any hardware-id list or request body a person means to send (a million ids is ~20 MB). */
export const MAX_INPUT_BYTES = 32 * 1024 * 1024;
/** JSON bodies of this API are a few levels deep; a deeper document is a mistake, or an attack on the parser. */
export const MAX_JSON_DEPTH = 64;

const CHUNK_BYTES = 64 * 1024;

const openFile = promisify(open);
const statFd = promisify(fstat);
const closeFd = promisify(close);
const readFd = promisify(read);

/** A file that cannot be read; `code` is the system's (ENOENT...) when opening it failed. */
export class InputFileError extends UsageError {
  constructor(
    message: string,
    readonly code?: string,
  ) {
    super(message);
    this.name = 'InputFileError';
  }
}

export interface ReadLimits {
  /** Ctrl-C, SIGTERM: the read stops and rejects with the signal's reason. */
  signal?: AbortSignal;
  maxBytes?: number;
}

/** All of a stream (stdin), as UTF-8, at most `maxBytes`. `what` names it in errors: "--from-file (stdin)". */
export function readAll(stream: NodeJS.ReadableStream, what = 'stdin', limits: ReadLimits = {}): Promise<string> {
  const maxBytes = limits.maxBytes ?? MAX_INPUT_BYTES;
  const signal = limits.signal;
  return new Promise<string>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const listeners = {
      data: (chunk: Buffer | string) => {
        const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
        size += bytes.length;
        if (size > maxBytes) return finish(tooLarge(what, maxBytes));
        chunks.push(bytes);
      },
      end: () => finish(),
      error: (error: NodeJS.ErrnoException) => finish(new UsageError(`cannot read ${what}: ${describeFileError(error)}`)),
    };
    const onAbort = () => finish(signal?.reason ?? new Error('aborted'));
    const finish = (error?: unknown) => {
      for (const [event, listener] of Object.entries(listeners)) stream.off(event, listener);
      signal?.removeEventListener('abort', onAbort);
      if (error === undefined) return resolve(Buffer.concat(chunks).toString('utf8'));
      // nothing more is wanted from it: a paused stdin no longer keeps the process alive
      stream.pause();
      reject(error);
    };
    if (signal?.aborted) return onAbort();
    signal?.addEventListener('abort', onAbort, { once: true });
    for (const [event, listener] of Object.entries(listeners)) stream.on(event, listener);
    stream.resume();
  });
}

export async function readFileOrStdin(file: string, stdin: NodeJS.ReadableStream, flag: string, limits: ReadLimits = {}): Promise<string> {
  if (file === '-') return readAll(stdin, `${flag} (stdin)`, limits);
  return readTextFile(file, `${flag} ${quoteInput(file)}`, limits);
}

/** A JSON document from a file or stdin, with the file named in the error when it is not JSON. */
export async function readJsonInput(file: string, stdin: NodeJS.ReadableStream, flag: string, limits: ReadLimits = {}): Promise<unknown> {
  const { text, what } = await readBoundedText(file, stdin, flag, limits);
  return parseJson(text, what);
}

/**
 * A JSON or YAML document (what `-o json` and `-o yaml` print) from a file or stdin. Text that opens like JSON
 * is read as JSON, so a JSON mistake is reported as one rather than as some YAML reading of it.
 */
export async function readJsonOrYamlInput(file: string, stdin: NodeJS.ReadableStream, flag: string, limits: ReadLimits = {}): Promise<unknown> {
  const { text, what } = await readBoundedText(file, stdin, flag, limits);
  return /^\s*[[{]/.test(text) ? parseJson(text, what) : parseYaml(text, what);
}

async function readBoundedText(file: string, stdin: NodeJS.ReadableStream, flag: string, limits: ReadLimits): Promise<{ text: string; what: string }> {
  const text = await readFileOrStdin(file, stdin, flag, limits);
  const what = `${flag} ${file === '-' ? '(stdin)' : quoteInput(file)}`;
  // checked before parsing: what consumes the value afterwards (JSON.stringify, schema checks) recurses
  if (exceedsDepth(text, MAX_JSON_DEPTH)) {
    throw new UsageError(`${what} is nested more than ${MAX_JSON_DEPTH} levels deep`, 'request bodies of this API are a few levels deep: check the file');
  }
  return { text, what };
}

function parseJson(text: string, what: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new UsageError(`${what} is not valid JSON: ${(error as Error).message.split('\n')[0]}`);
  }
}

/** YAML text (JSON reads as YAML too), with `what` and the position named in the error. */
export async function parseYaml(text: string, what: string): Promise<unknown> {
  // yaml is CommonJS: bundled, its dynamic import has only a default export; under Node both forms exist
  const loaded = (await import('yaml')) as typeof import('yaml') & { default?: typeof import('yaml') };
  const { parse, YAMLParseError } = loaded.default ?? loaded;
  try {
    return parse(text) as unknown;
  } catch (err) {
    if (!(err instanceof YAMLParseError)) throw err;
    // the message's first line, without the position it also gives (said once, first)
    const at = err.linePos?.[0];
    const reason = err.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
    throw new UsageError(`${what} is not valid YAML${at ? ` (line ${at.line}, column ${at.col})` : ''}: ${reason}`);
  }
}

/**
 * A file fleetctl keeps (a journal, a sandbox state file): missing, or a regular file. Anything else is refused
 * before it is touched: a FIFO would never end, and renaming or deleting over /dev/null would replace a device.
 */
export function requireRegularFileOrMissing(file: string, what: string): string {
  let info: Stats | undefined;
  try {
    info = statSync(file, { throwIfNoEntry: false });
  } catch {
    // not there to look at (a parent that is a file, a folder not readable): what uses it says why it fails
    return file;
  }
  if (info && !info.isFile()) throw new UsageError(`${what} ${quoteInput(file)} is ${kindOf(info)}, not a regular file`);
  return file;
}

/** A regular file or a pipe, as UTF-8, bounded and interruptible; `what` names it in errors. */
export async function readTextFile(file: string, what: string, limits: ReadLimits = {}): Promise<string> {
  const maxBytes = limits.maxBytes ?? MAX_INPUT_BYTES;
  // A plain descriptor, not a FileHandle: a pipe's descriptor goes to a socket, which closes it; a FileHandle
  // would close it again when collected, by then maybe another file's.
  // O_NONBLOCK: opening a FIFO does not wait for a writer, and a file that waits for data (/proc/kmsg)
  // answers EAGAIN instead of blocking a thread that no signal can wake.
  const fd = await openFile(file, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY).catch((error: NodeJS.ErrnoException) => {
    throw new InputFileError(`cannot read ${what}: ${describeFileError(error)}`, error.code);
  });
  const info = await statFd(fd).catch(async (error: NodeJS.ErrnoException) => {
    await closeFd(fd).catch(() => undefined);
    throw new UsageError(`cannot read ${what}: ${describeFileError(error)}`);
  });
  if (info.isFIFO()) {
    // a pipe (`--from-file <(cmd)`) is read through the event loop, so it stops on Ctrl-C
    const pipe = new Socket({ fd, readable: true, writable: false });
    try {
      return await readAll(pipe, what, limits);
    } finally {
      pipe.destroy();
    }
  }
  try {
    if (!info.isFile()) throw new UsageError(`cannot read ${what}: it is ${kindOf(info)}, not a regular file`);
    if (info.size > maxBytes) throw tooLarge(what, maxBytes);
    return await readChunks(fd, what, maxBytes, limits.signal);
  } finally {
    await closeFd(fd).catch(() => undefined);
  }
}

async function readChunks(fd: number, what: string, maxBytes: number, signal: AbortSignal | undefined): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for (;;) {
    if (signal?.aborted) throw signal.reason ?? new Error('aborted');
    const buffer = Buffer.allocUnsafe(CHUNK_BYTES);
    let bytesRead: number;
    try {
      ({ bytesRead } = await readFd(fd, buffer, 0, CHUNK_BYTES, null));
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EAGAIN' || code === 'EWOULDBLOCK') throw new UsageError(`cannot read ${what}: it waits for data instead of ending like a file`);
      throw new UsageError(`cannot read ${what}: ${describeFileError(error as NodeJS.ErrnoException)}`);
    }
    if (bytesRead === 0) return Buffer.concat(chunks, size).toString('utf8');
    size += bytesRead;
    // a file of size 0 can still stream without end (/proc, /sys)
    if (size > maxBytes) throw tooLarge(what, maxBytes);
    chunks.push(buffer.subarray(0, bytesRead));
  }
}

/** True when brackets nest deeper than `max` outside strings; one pass, no recursion. */
export function exceedsDepth(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const char = text.charCodeAt(i);
    if (inString) {
      if (char === 0x5c) i++;
      else if (char === 0x22) inString = false;
    } else if (char === 0x22) inString = true;
    else if (char === 0x5b || char === 0x7b) {
      if (++depth > max) return true;
    } else if (char === 0x5d || char === 0x7d) depth--;
  }
  return false;
}

function tooLarge(what: string, maxBytes: number): UsageError {
  return new UsageError(`${what} is larger than ${maxBytes / (1024 * 1024)} MiB`, 'split the input into smaller files');
}

function kindOf(info: Stats): string {
  if (info.isDirectory()) return 'a directory';
  if (info.isCharacterDevice()) return 'a character device';
  if (info.isBlockDevice()) return 'a block device';
  if (info.isSocket()) return 'a socket';
  if (info.isFIFO()) return 'a named pipe';
  return 'a special file';
}

function describeFileError(error: NodeJS.ErrnoException): string {
  switch (error.code) {
    case 'ENOENT':
      return 'no such file';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'EISDIR':
      return 'it is a directory';
    case 'ENXIO':
      return 'no device or reader behind it';
    default:
      return error.code ?? error.message;
  }
}
