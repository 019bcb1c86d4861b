// One fuzz case: a command of the tree with generated arguments, flags and stdin; and the command line it
// becomes once confined (no fixed port, no network beyond loopback, no write outside its temporary folder).
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import fc from 'fast-check';
import { terminalSafeJson } from '../../src/shared/terminal-text.js';
import type { CommandSpec, OptionSpec } from './tree.js';
import { argumentValue, optionValue, stdinValue, strayToken, type World } from './values.js';

export type Token = { kind: 'option'; option: OptionSpec; value?: string; inline: boolean } | { kind: 'arg'; value: string } | { kind: 'stray'; value: string };

export interface FuzzCase {
  command: CommandSpec;
  globals: Token[];
  tokens: Token[];
  stdin: string;
  /** Ctrl-C this long after start, as a person might; otherwise only when the case overruns its budget. */
  interruptAfterMs?: number;
}

/** One case in eight has it. */
function rarely<T>(arbitrary: fc.Arbitrary<T>): fc.Arbitrary<T | undefined> {
  return fc.oneof({ weight: 7, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary });
}

function optionTokens(options: OptionSpec[], world: World, maxLength: number): fc.Arbitrary<Token[]> {
  return fc.subarray(options, { maxLength: Math.min(maxLength, options.length) }).chain((chosen) =>
    fc.tuple(
      ...chosen.map((option): fc.Arbitrary<Token> =>
        option.takesValue
          ? fc.record({ value: optionValue(option, world), inline: fc.boolean() }).map(({ value, inline }) => ({ kind: 'option' as const, option, value, inline }))
          : fc.constant({ kind: 'option' as const, option, inline: false }),
      ),
    ),
  );
}

function argumentTokens(command: CommandSpec, world: World): fc.Arbitrary<Token[]> {
  const parts = command.args.map((argument) => {
    const value = argumentValue(argument, world);
    if (argument.variadic) return fc.array(value, { maxLength: 3 });
    if (argument.required) return value.map((v) => [v]);
    return fc.option(value, { nil: undefined }).map((v) => (v === undefined ? [] : [v]));
  });
  return fc.tuple(...parts).map((lists) => lists.flat().map((value) => ({ kind: 'arg' as const, value })));
}

export function caseFor(command: CommandSpec, globals: OptionSpec[], world: World): fc.Arbitrary<FuzzCase> {
  const fuzzedGlobals = globals.filter((o) => o.name !== 'sandbox');
  const sandboxFlag = globals.find((o) => o.name === 'sandbox')!;
  return fc
    .record({
      // global flags now and then: most of them change nothing a command checks
      globals: fc.oneof({ weight: 2, arbitrary: fc.constant<Token[]>([]) }, { weight: 1, arbitrary: optionTokens(fuzzedGlobals, world, 2) }),
      // the embedded sandbox costs a start-up per case: now and then
      // (19, not 0: shrinking goes towards 0, and a counterexample should shed the embedded sandbox)
      embedded: fc.integer({ min: 0, max: 19 }).map((n) => n === 19),
      args: argumentTokens(command, world),
      options: optionTokens(command.options, world, 6),
      stray: rarely(strayToken),
      stdin: stdinValue(world),
      interrupt: rarely(fc.integer({ min: 0, max: 200 })),
    })
    .map(({ globals: g, embedded, args, options, stray, stdin, interrupt }) => {
      const global = embedded ? [...g, { kind: 'option' as const, option: sandboxFlag, inline: false }] : g;
      const tokens = [...args, ...options, ...(stray === undefined ? [] : [{ kind: 'stray' as const, value: stray }])];
      const fuzzCase: FuzzCase = { command, globals: global, tokens, stdin, interruptAfterMs: interrupt };
      // fast-check prints counterexamples with this: the command line, long values cut
      return Object.assign(fuzzCase, { [fc.toStringMethod]: () => describeArgv(plainArgv(fuzzCase)) });
    });
}

function tokenArgv(token: Token, confine: (option: OptionSpec, value: string) => string): string[] {
  if (token.kind !== 'option') return [token.value];
  if (token.value === undefined) return [token.option.flag];
  const value = confine(token.option, token.value);
  return token.inline && token.option.flag.startsWith('--') ? [`${token.option.flag}=${value}`] : [token.option.flag, value];
}

/** The command line as generated, before confinement (what a counterexample shows). */
export function plainArgv(c: FuzzCase): string[] {
  const keep = (_option: OptionSpec, value: string) => value;
  return [...c.globals.flatMap((t) => tokenArgv(t, keep)), ...c.command.path, ...c.tokens.flatMap((t) => tokenArgv(t, keep))];
}

/** The command line as run: see confineValue. */
export function confinedArgv(c: FuzzCase, caseDir: string, world: World): string[] {
  const confine = (option: OptionSpec, value: string) => confineValue(option.name, value, caseDir, world);
  // a server's default port is a fixed one (4010, 4011): the case picks a free one unless it chose a port
  const port = c.command.options.find((o) => o.name === 'port');
  const choosesPort = c.tokens.some((t) => t.kind === 'option' && t.option === port);
  const freePort = port && !choosesPort ? [port.flag, '0'] : [];
  // before the generated tokens: after a `--`, it would be an argument
  return [...c.globals.flatMap((t) => tokenArgv(t, confine)), ...c.command.path, ...freePort, ...c.tokens.flatMap((t) => tokenArgv(t, confine))];
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '::1']);
const WRITTEN_PATHS = new Set(['state', 'journal', 'dir', 'man-dir']);

/**
 * The few values that could leave the test: a fixed port (sandbox, webhook listen), a listening address or a
 * URL other than loopback, a path written outside the case's folder, a world too big to seed in a test.
 * Everything a command refuses anyway is left as generated.
 */
export function confineValue(name: string, value: string, caseDir: string, world: World): string {
  if (name === 'port') return /^\d+$/.test(value) && Number(value) !== 0 ? '0' : value;
  // any address a server would accept becomes loopback: '::' or a host name would listen beyond this machine
  if (name === 'host') return /^[^\s\u0000-\u001f\u007f-\u009f]{1,253}$/.test(value) && !LOOPBACK_HOSTS.has(value) ? '127.0.0.1' : value;
  if (name === 'base-url' || name === 'auth-url') return parsesAsUrl(value) ? 'not-a-url' : value;
  if (name === 'to' && parsesAsUrl(value)) return isLoopbackUrl(value) ? value : 'http://127.0.0.1:9/hooks';
  // the sandbox's start-up time for a big world is a bench matter (bench/sandbox-startup.mjs), not a fuzz one
  if (name === 'devices' && /^\d+$/.test(value) && Number(value) > 2000) return '2000';
  if (WRITTEN_PATHS.has(name)) return writtenPath(value, caseDir, world);
  return value;
}

/** Anything written stays in the case's folder; the shared FIFO becomes one of the case's own. */
function writtenPath(value: string, caseDir: string, world: World): string {
  if (value === world.files.fifo) {
    const fifo = path.join(caseDir, 'fifo');
    execFileSync('mkfifo', [fifo]);
    return fifo;
  }
  if (value === '') return caseDir;
  const name = path.basename(value).replace(/[\\/\u0000]/g, '_').slice(0, 200);
  return path.join(caseDir, /^\.*$/.test(name) ? `_${name}` : name);
}

function parsesAsUrl(value: string): boolean {
  try {
    new URL(value);
    return true;
  } catch {
    return false;
  }
}

function isLoopbackUrl(value: string): boolean {
  const url = new URL(value);
  return (url.protocol === 'http:' || url.protocol === 'https:') && (url.hostname === '127.0.0.1' || url.hostname === '[::1]');
}

/** Commands that run until interrupted: a server, a watch, a follow, a read from a pipe nobody writes to. */
export function runsUntilInterrupted(c: FuzzCase, argv: string[]): boolean {
  const name = c.command.path.join(' ');
  if (name === 'sandbox' || name === 'webhook listen') return true;
  if (name === 'devices last-position' && argv.some((a) => a === '-w' || a === '--watch')) return true;
  // status --watch INTERVAL: the report again every interval until Ctrl-C
  if (name === 'status' && argv.some((a) => a === '--watch' || a.startsWith('--watch='))) return true;
  // devices events, events search: prints the window, then polls until Ctrl-C
  if (c.command.options.some((o) => o.name === 'follow') && argv.some((a) => a === '-f' || a === '--follow')) return true;
  // the suite's FIFO, or a case's own copy of it (--state FIFO)
  return argv.some((a) => a.endsWith('/fifo'));
}

/** An argv for a message: JSON-quoted (escapes visible), long values cut. */
export function describeArgv(argv: string[]): string {
  return argv
    .map((arg) => terminalSafeJson(arg.length > 120 ? `${arg.slice(0, 100)}…(${arg.length} chars)` : arg))
    .join(' ');
}
