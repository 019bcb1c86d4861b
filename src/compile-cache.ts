// V8's compiled code of the bundle, kept between runs in the user's cache directory: a script that calls fleetctl
// in a loop compiles it once, not on every call. Loaded by bin/fleetctl.js before the bundle, on every Node.
//
// Node's own compile cache (module.enableCompileCache, Node 22.1+) keeps what V8 compiled when it compiled a file:
// its top level and the functions it compiles at once. Everything else, a class's methods above all (commander's
// parser, undici's client, the API client), V8 compiles on first call, again on every run: about 400 functions,
// a tenth of a request's time. Here each file of the bundle is compiled as a vm.Script with the code V8 kept of it
// the last time, and that code is taken at the end of a run (Script#createCachedData), with every function the
// run compiled. A run writes it when a file had none yet, or when the run is of a kind not seen since the build
// changed (`runShape`): a lookup in a loop then writes once, and `devices reboot` after `devices get` adds what
// reboot compiles.
//
// This file imports only small leaves of the bundle (io/), bundled into it alone (src/build/bundle.mjs): a
// chunk it imported would be loaded before the cache is in place, and by every chunk after it.
import Module from 'node:module';
import fs from 'node:fs';
import path from 'node:path';
import { ensureDirectory } from './io/directories.js';
import { replaceFileAtomicallySync } from './io/temporary-file.js';

/** $XDG_CACHE_HOME/fleetctl, else ~/.cache/fleetctl (a relative XDG_CACHE_HOME is ignored, as the XDG spec asks). */
export function compileCacheDirectory(env: NodeJS.ProcessEnv): string {
  const xdg = env.XDG_CACHE_HOME;
  const base = xdg && path.isAbsolute(xdg) ? xdg : path.join(process.getBuiltinModule('node:os').homedir(), '.cache');
  return path.join(base, 'fleetctl');
}

/**
 * The folder of this Node's code: V8 refuses code made by another version or with other flags, and two Node
 * versions used in turn would otherwise replace each other's.
 */
export function codeDirectory(env: NodeJS.ProcessEnv, node = process): string {
  return path.join(compileCacheDirectory(env), `code-${node.version}-${node.arch}`);
}

/** Past this many kinds of run for one build, only a file without code makes a run write (a bound on the writes). */
export const MAX_SHAPES = 32;

/**
 * The kind of a run, as far as the code it compiles goes: the command's words (the first two words of the line
 * that are lower-case names), the flags' names, and the output format. Never an operand's value: an id, a key or
 * a path differs from call to call of a loop, whose runs are of one kind.
 */
export function runShape(args: readonly string[]): string {
  const words: string[] = [];
  const flags = new Set<string>();
  for (const [index, arg] of args.entries()) {
    if (arg === '--') break;
    if (arg.startsWith('-')) {
      const name = arg.split('=', 1)[0]!;
      flags.add(name);
      // the format picks the writer: json and csv run other code
      if (name === '-o' || name === '--output') flags.add(`${name}=${arg.includes('=') ? arg.slice(name.length + 1) : (args[index + 1] ?? '')}`);
      else if (/^-o[a-z]+$/.test(name)) flags.add(`-o=${name.slice(2)}`);
      continue;
    }
    if (words.length < 2 && /^[a-z][a-z-]*$/.test(arg)) words.push(arg);
  }
  return [...words, ...[...flags].sort()].join(' ');
}

/** What Node's CommonJS loader gives a module, as this file uses it. */
interface CompilingModule {
  _compile(content: string, filename: string, format?: string): unknown;
  require(id: string): unknown;
  exports: unknown;
}

/**
 * How the file of a build's kinds of run keeps one: its checksum, not its words. A word of the line could be a
 * value typed where a command word goes (a webhook key before its verb), and nothing typed is written down.
 */
export function shapeKey(shape: string): string {
  return crc32(shape).toString(16);
}

interface Loaded {
  name: string;
  /** The file the code is kept in. */
  file: string;
  script: import('node:vm').Script;
  /** There was no code of this file, or V8 refused it. */
  fresh: boolean;
  /** V8 11: the code as compiled, taken at once (see below). */
  compiled?: Buffer;
}

/**
 * From now on, each CommonJS file of `bundleDir` is compiled with the code kept of it, and at exit the code of the
 * run is kept when it has more to give. NODE_DISABLE_COMPILE_CACHE=1 turns it off, as for Node's own cache.
 * Only a speed-up: a cache that cannot be read or written costs time, never the command.
 */
export function installCodeCache(env: NodeJS.ProcessEnv, bundleDir: string, args: readonly string[]): void {
  // zlib.crc32 names and checks the files: Node 20.15 and later. With --enable-source-maps (a build with source
  // maps, FLEETCTL_BUILD_SOURCEMAPS=on) Node compiles the files itself: a vm.Script's stack frames are not mapped
  if (env.NODE_DISABLE_COMPILE_CACHE || !process.getBuiltinModule('node:zlib').crc32 || process.sourceMapsEnabled) return;
  const vm = process.getBuiltinModule('node:vm');
  const directory = codeDirectory(env);
  const within = path.resolve(bundleDir) + path.sep;
  // V8 11 (Node 20) refuses code taken after a V8 flag changed, and undici's parser changes one for the first
  // request (shared/undici.ts): there the code is taken as compiled, as Node's own cache does
  const afterRun = !process.versions.v8.startsWith('11.');
  const loaded: Loaded[] = [];
  const proto = Module.prototype as unknown as CompilingModule;
  const compile = proto._compile;
  proto._compile = function compileWithCode(this: CompilingModule, content: string, filename: string, format?: string) {
    if (!filename.startsWith(within) || (format !== undefined && format !== 'commonjs')) return compile.call(this, content, filename, format);
    const name = path.basename(filename, '.js');
    // the content's checksum in the name: V8 itself checks only the length of the source
    const file = path.join(directory, `${name}-${crc32(content).toString(16)}.code`);
    const cachedData = readCode(file);
    const script = new vm.Script(Module.wrap(content), { filename, cachedData });
    const fresh = cachedData === undefined || script.cachedDataRejected === true;
    loaded.push({ name, file, script, fresh, ...(fresh && !afterRun ? { compiled: script.createCachedData() } : {}) });
    const wrapper = script.runInThisContext({ displayErrors: true }) as (...args: unknown[]) => unknown;
    const module = this;
    const require = Object.assign((id: string) => module.require(id), {
      resolve: (request: string) => (Module as unknown as { _resolveFilename(request: string, parent: unknown): string })._resolveFilename(request, module),
      main: process.mainModule,
      cache: (Module as unknown as { _cache: unknown })._cache,
    });
    return wrapper.call(module.exports, module.exports, require, module, filename, path.dirname(filename));
  };
  process.once('exit', () => {
    try {
      keep(directory, loaded, afterRun ? runShape(args) : undefined);
    } catch {
      // a cache that cannot be written: the next run compiles again
    }
  });
}

const crc32 = (data: string | Uint8Array): number => process.getBuiltinModule('node:zlib').crc32(data);

/**
 * A file of code: the checksum of the code (4 bytes, big-endian), then the code. V8 checks the code's version,
 * flags and length, not every byte: a file damaged on the disk is not given to it.
 */
function readCode(file: string): Buffer | undefined {
  const kept = readIfThere(file);
  if (kept === undefined || kept.length <= 4) return undefined;
  const code = kept.subarray(4);
  return kept.readUInt32BE(0) === crc32(code) ? code : undefined;
}

function writeCode(file: string, code: Buffer): void {
  const header = Buffer.alloc(4);
  header.writeUInt32BE(crc32(code));
  replaceFileAtomicallySync(file, Buffer.concat([header, code]));
}

/** Code not written again for this long is removed at the next write: mostly that of builds since replaced. */
export const STALE_AFTER_MS = 30 * 86_400_000;

/** Removes the files of code (and kinds of run) older than STALE_AFTER_MS; one in use is written again by its next run. */
function removeStale(directory: string, now = Date.now()): void {
  for (const name of fs.readdirSync(directory)) {
    if (!name.endsWith('.code') && !name.startsWith('shapes-')) continue;
    const file = path.join(directory, name);
    try {
      if (now - fs.statSync(file).mtimeMs > STALE_AFTER_MS) fs.unlinkSync(file);
    } catch {
      // removed meanwhile by another run
    }
  }
}

function readIfThere(file: string): Buffer | undefined {
  try {
    return fs.readFileSync(file);
  } catch {
    return undefined;
  }
}

/**
 * At exit: with `shape` (code taken after the run), every file loaded, when one had no code or the run is of a new
 * kind for this build; without it (V8 11), the files that had no code, as compiled.
 */
function keep(directory: string, loaded: Loaded[], shape: string | undefined): void {
  if (loaded.length === 0) return;
  const fresh = loaded.filter((entry) => entry.fresh);
  if (shape === undefined) {
    if (fresh.length === 0) return;
    ensureDirectory(directory);
    removeStale(directory);
    for (const entry of fresh) writeCode(entry.file, entry.compiled!);
    return;
  }
  // the build is named by its entry's code: a new build learns its kinds of run again
  const main = loaded.find((script) => script.name === 'main') ?? loaded[0]!;
  const shapes = path.join(directory, `shapes-${path.basename(main.file, '.code')}`);
  const known = (readIfThere(shapes)?.toString('utf8') ?? '').split('\n').filter(Boolean);
  const key = shapeKey(shape);
  const newShape = !known.includes(key) && known.length < MAX_SHAPES;
  if (fresh.length === 0 && !newShape) return;
  ensureDirectory(directory);
  removeStale(directory);
  for (const entry of loaded) writeCode(entry.file, entry.script.createCachedData());
  if (newShape) fs.appendFileSync(shapes, `${key}\n`, { mode: 0o600 });
}
