// --jq runs real jq: jq 1.7.1 compiled to WebAssembly, from the jq-web package, loaded only when --jq is given.
//
// Why jq-web (0.6.2), measured against the other jq builds shipped inside an npm package (see the report of
// issue 10; `node` scripts there rerun it):
//  - jq-web: jq 1.7.1 (pick, abs, $__loc__, limit, @csv, try/catch, regexes all as jq has them); thousands
//    of runs in one process stay correct; a failed run carries jq's exit status and jq's own stderr;
//    3.4 MB installed (2.8 MB of WebAssembly), no dependencies; about 80 ms to load and 250 ms to a first
//    result here. Each run costs about 6 ms, so lists are filtered a batch of items per run (about 25 µs an item).
//  - jq-wasm 1.0.1: also jq 1.7.1 and faster per run, but after about 300 runs in one process its compiler
//    asserts and every later run fails; it sets process.exitCode, drops jq's stderr whenever there was output,
//    and copies its buffers byte by byte.
//  - @pixiebrix/jq-web 0.5.1: a jq from before 1.7 (no pick, no abs), 7.6 MB, and a wrong first answer.
//  - node-jq downloads a binary at install time; pure-JavaScript subsets are not jq.
import { createRequire } from 'node:module';
import type { JqError, JqInstance } from 'jq-web';
import { UsageError } from '../errors.js';

export interface JqStyle {
  /** Indented JSON (jq's default) rather than one line per value (-c). Strings are raw either way (-r). */
  pretty: boolean;
}

/** What a run printed, and the error that stopped it (after the results of the items before it). */
export interface JqResult {
  text: string;
  /** What jq wrote to stderr without failing (debug, stderr). */
  messages: string;
  error?: UsageError;
}

export class JqProgram {
  constructor(
    private readonly jq: JqInstance,
    readonly expression: string,
  ) {}

  /**
   * Runs the program on each input in turn, as jq runs on a stream of JSON values; `firstItem` numbers the
   * inputs in messages. The first runtime error stops the run, as it stops `gh --jq`: a filter that does not
   * fit the data is refused loudly rather than leaving holes in a long stream.
   */
  run(inputs: readonly unknown[], style: JqStyle, firstItem = 1): JqResult {
    const flags = style.pretty ? ['-r'] : ['-r', '-c'];
    const batch = runJq(this.jq, inputs.map((input) => `${JSON.stringify(input)}\n`).join(''), this.expression, flags);
    if (!batch.failed && !batch.stderr.includes('jq: error')) return { text: batch.stdout, messages: batch.stderr };
    if (inputs.length === 1) return { text: '', messages: '', error: runtimeError(batch.stderr, firstItem) };
    // One input failed, and jq does not say which output came from which input: run them one by one.
    const result: JqResult = { text: '', messages: '' };
    for (const [index, input] of inputs.entries()) {
      const one = this.run([input], style, firstItem + index);
      result.text += one.text;
      result.messages += one.messages;
      if (one.error) return { ...result, error: one.error };
    }
    return result;
  }
}

/** Loads jq and compiles the expression (on no input, so nothing runs): jq's own message when it does not compile. */
export async function compileJq(expression: string): Promise<JqProgram> {
  // jq-web's heap gives out on very long programs; no filter a person writes comes near this
  if (expression.length > MAX_EXPRESSION_LENGTH) {
    throw new UsageError(`--jq: the expression is ${expression.length} characters long; at most ${MAX_EXPRESSION_LENGTH}`, JQ_HINT);
  }
  // A fresh instance for each program: one WebAssembly heap that many failed compilations have gone through
  // (the fuzz suite runs thousands of commands in one process) ends in "memory access out of bounds".
  const jq = await loadJqWeb();
  let check: JqRunOutcome;
  try {
    check = runJq(jq, '', expression, ['-c']);
  } catch (error) {
    // a fault inside the WebAssembly module: the expression is what it was given
    if (error instanceof WebAssembly.RuntimeError) throw new UsageError(`--jq: jq could not compile the expression (${error.message})`, JQ_HINT);
    throw error;
  }
  if (check.failed) {
    throw new UsageError(`--jq: ${check.stderr.trimEnd() || `jq exited with status ${check.exitCode}`}`, JQ_HINT);
  }
  return new JqProgram(jq, expression);
}

const MAX_EXPRESSION_LENGTH = 10_000;

/** A new instance of jq-web: from node_modules, or from the standalone executable's assets (npm run build:sea). */
function loadJqWeb(): Promise<JqInstance> {
  const sea = process.getBuiltinModule('node:sea') as SeaApi | undefined;
  if (sea?.isSea()) return jqWebFromAssets(sea);
  // required, not imported: the package is CommonJS whose export is a promise, which an ESM import would wrap
  const require = createRequire(import.meta.url);
  const entry = require.resolve('jq-web');
  delete require.cache[entry];
  return require(entry) as Promise<JqInstance>;
}

/** node:sea, as far as it is used here (its types come with @types/node 20.12 and later). */
export interface SeaApi {
  isSea(): boolean;
  getAsset(key: string): ArrayBuffer;
  getAsset(key: string, encoding: string): string;
}

/**
 * jq-web inside a single executable, which has no node_modules: its script and its WebAssembly file are the
 * executable's assets (src/build/sea.mjs). The script is run as CommonJS runs a module, and reads jq.wasm
 * beside itself (__dirname) with fs.readFileSync, as Emscripten's Node loader does: that one file comes from the
 * asset, every other call goes to node:fs.
 */
export function jqWebFromAssets(sea: SeaApi): Promise<JqInstance> {
  const fs = process.getBuiltinModule('node:fs');
  const dir = '/fleetctl-executable-assets';
  const wasmFile = `${dir}/jq.wasm`;
  const readFileSync = ((file: unknown, ...rest: unknown[]) =>
    String(file) === wasmFile ? Buffer.from(sea.getAsset('jq.wasm')) : Reflect.apply(fs.readFileSync, fs, [file, ...rest])) as typeof fs.readFileSync;
  const builtin = (id: string): unknown => (id === 'fs' || id === 'node:fs' ? { ...fs, readFileSync } : process.getBuiltinModule(id));
  const module = { exports: {} as unknown };
  const run = process.getBuiltinModule('node:vm').compileFunction(sea.getAsset('jq.js', 'utf8'), ['exports', 'require', 'module', '__filename', '__dirname'], { filename: `${dir}/jq.js` });
  run(module.exports, builtin, module, `${dir}/jq.js`, dir);
  return module.exports as Promise<JqInstance>;
}

const JQ_HINT = "the expression is jq's language (jq 1.7.1), applied to each item of a list (with --slurp, to the whole list); quote it for the shell: --jq '.hardware_id'";

interface JqRunOutcome {
  stdout: string;
  stderr: string;
  failed: boolean;
  exitCode?: number;
}

/**
 * One run of jq. jq-web reports stderr of a successful run through console.warn and leaves its exit status
 * in process.exitCode: both are taken back here, so the command's own stderr and exit code stay ours.
 */
function runJq(jq: JqInstance, input: string, expression: string, flags: string[]): JqRunOutcome {
  const warn = console.warn;
  const exitCode = process.exitCode;
  let stderr = '';
  console.warn = (...args: unknown[]) => {
    stderr += `${String(args[args.length - 1])}\n`;
  };
  try {
    // jq-web leaves out the line feed after the last value, and answers undefined when nothing was printed
    const stdout = jq.raw(input, expression, flags) as string | undefined;
    return { stdout: stdout === undefined ? '' : `${stdout}\n`, stderr, failed: false };
  } catch (error) {
    const failure = error as JqError;
    if (typeof failure.exitCode !== 'number') throw error;
    return { stdout: '', stderr: failure.stderr ?? '', failed: true, exitCode: failure.exitCode };
  } finally {
    console.warn = warn;
    process.exitCode = exitCode;
  }
}

/** jq's message, with its position in jq-web's input file turned into the item it was running on. */
function runtimeError(stderr: string, item: number): UsageError {
  const message = stderr.trimEnd().replace(/\(at inputString:\d+\)/g, `(at item ${item})`) || 'jq stopped with no message';
  return new UsageError(`--jq: ${message}`, 'guard the filter for such items, e.g. with `?`, `// empty` or try/catch');
}
