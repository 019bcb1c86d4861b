// Deps for unit tests of verbs: test streams, a real ApiClient over a scripted transport (every scripted
// answer must be used), a scripted prompter, and settings without a config file.
import { expect, onTestFinished } from 'vitest';
import { Command } from 'commander';
import { IOStreams, type TestIOStreams } from '../../src/io/streams.js';
import { Output, type OutputFormat } from '../../src/output/render.js';
import { ApiClient } from '../../src/api/client.js';
import type { HttpRequest, HttpResponse, Transport } from '../../src/api/transport.js';
import { silentTracer } from '../../src/api/trace.js';
import { DEFAULT_RETRY_POLICY } from '../../src/shared/retry.js';
import { operation } from '../../src/openapi/operations.js';
import type { PromptChoice, Prompter } from '../../src/io/prompter.js';
import type { Clock } from '../../src/io/clock.js';
import type { Settings } from '../../src/config/settings.js';
import type { Deps } from '../../src/factory.js';
import type { TokenSource } from '../../src/auth/tokens.js';
import { memoryConfigStore } from '../../src/config/store.js';

export const BASE_URL = 'https://api.fleet.test';

export interface ScriptedAnswer {
  method: string;
  /** Path and query as sent, e.g. /v1/drivers?limit=50 */
  path: string;
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface SentRequest extends HttpRequest {
  path: string;
  json?: unknown;
  scope?: string;
}

export interface ScriptedSearch {
  term?: string;
  choose: string;
}

/** What a search or checkbox prompt showed. */
export interface ShownList {
  message: string;
  term?: string;
  /** The lines of the choices, disabled ones followed by their reason, and separators as they read. */
  lines: string[];
}

export interface FakeDepsOptions {
  tty?: boolean;
  stdin?: string;
  format?: OutputFormat;
  columns?: string[];
  answers?: ScriptedAnswer[];
  /** Answers for prompter.input and prompter.confirm ('y' is yes), in order. */
  inputs?: string[];
  /** Answers for prompter.search, in order: the term typed, then the choice whose line contains `choose`. */
  searches?: ScriptedSearch[];
  /** Answers for prompter.checkbox, in order: the choices whose lines contain these texts are ticked. */
  checks?: string[][];
  organizationId?: string;
  now?: string;
  env?: NodeJS.ProcessEnv;
  configDir?: string;
}

export interface FakeDeps {
  deps: Deps;
  io: TestIOStreams;
  sent: SentRequest[];
  prompts: string[];
  /** The lists search and checkbox prompts showed, in order. */
  shown: ShownList[];
  /** Fails when a scripted answer was never asked for. */
  assertAllAnswered(): void;
}

export function fakeDeps(opts: FakeDepsOptions = {}): FakeDeps {
  const io = IOStreams.forTest({ tty: opts.tty ?? false, stdin: opts.stdin ?? '' });
  const answers = [...(opts.answers ?? [])];
  const sent: SentRequest[] = [];
  const prompts: string[] = [];
  const inputs = [...(opts.inputs ?? [])];
  const searches = [...(opts.searches ?? [])];
  const checks = [...(opts.checks ?? [])];
  const shown: ShownList[] = [];
  // a scripted answer nobody asked for fails the test, without the test having to check
  onTestFinished(() => {
    expect({ inputs, searches, checks }, 'scripted prompt answers left unused').toEqual({ inputs: [], searches: [], checks: [] });
  });
  const scopes: string[] = [];
  const transport: Transport = {
    async send(request) {
      const url = new URL(request.url);
      const path = url.pathname + url.search;
      sent.push({ ...request, path, json: request.body ? JSON.parse(request.body) : undefined, scope: scopes.at(-1) });
      const next = answers.shift();
      if (!next) throw new Error(`unexpected request ${request.method} ${path}`);
      expect(`${request.method} ${path}`).toBe(`${next.method} ${next.path}`);
      const body = next.body === undefined ? '' : JSON.stringify(next.body);
      const status = next.status ?? 200;
      const type = status >= 400 ? 'application/problem+json' : 'application/json';
      return { status, headers: { 'content-type': type, ...next.headers }, text: body } satisfies HttpResponse;
    },
    stream: () => Promise.reject(new Error('no streams in unit tests')),
  };
  const clock: Clock = { now: () => new Date(opts.now ?? '2024-06-01T12:00:00Z'), sleep: async () => undefined };
  const api = new ApiClient({
    baseUrl: BASE_URL,
    transport,
    tokens: {
      accessToken: async (scope: string) => {
        scopes.push(scope);
        return 'test-token';
      },
      invalidate: () => undefined,
    } satisfies TokenSource,
    clock,
    tracer: silentTracer,
    retry: { ...DEFAULT_RETRY_POLICY, maxRetries: 0 },
    operation,
  });
  const prompter: Prompter = {
    async input(message, o) {
      prompts.push(message);
      const answer = inputs.shift();
      if (answer === undefined) throw new Error(`unexpected prompt ${message}`);
      const verdict = o?.validate?.(answer) ?? true;
      if (verdict !== true) throw new Error(`prompt ${message} rejected ${answer}: ${verdict}`);
      return answer;
    },
    password: async () => {
      throw new Error('unexpected password prompt');
    },
    async confirm(message) {
      prompts.push(message);
      const answer = inputs.shift();
      if (answer === undefined) throw new Error(`unexpected confirmation ${message}`);
      return answer === 'y';
    },
    async search(message, o) {
      prompts.push(message);
      const answer = searches.shift();
      if (!answer) throw new Error(`unexpected search prompt ${message}`);
      const items = await o.source(answer.term ?? '', new AbortController().signal);
      shown.push({ message, term: answer.term, lines: items.map((item) => ('separator' in item ? item.separator : lineOf(item))) });
      return chosen(items.filter((item) => !('separator' in item)) as PromptChoice<never>[], answer.choose, message);
    },
    async checkbox(message, o) {
      prompts.push(message);
      const answer = checks.shift();
      if (!answer) throw new Error(`unexpected checkbox prompt ${message}`);
      shown.push({ message, lines: o.choices.map(lineOf) });
      return answer.map((text) => chosen(o.choices, text, message));
    },
  };
  const none = { value: undefined, source: undefined };
  const settings: Settings = {
    profile: { value: 'default', source: 'default' },
    base_url: { value: BASE_URL, source: 'environment' },
    auth_url: { value: BASE_URL, source: 'default' },
    client_id: { value: 'test-client', source: 'environment' },
    client_secret: { value: 'test-secret', source: 'environment' },
    scopes: none,
    organization_id: opts.organizationId ? { value: opts.organizationId, source: 'environment' } : none,
    ca_file: none,
    client_secret_command: none,
  };
  const store = memoryConfigStore();
  const deps: Deps = {
    io,
    env: opts.env ?? {},
    clock,
    prompter,
    signal: new AbortController().signal,
    interruptSignal: new AbortController().signal,
    globals: () => ({}),
    debug: () => false,
    output: () => new Output(io, { format: opts.format ?? 'table', columns: opts.columns }),
    tracer: () => silentTracer,
    configDir: () => opts.configDir ?? '/nonexistent/fleetctl-test',
    config: async () => store,
    keychain: () => {
      throw new Error('no keychain in unit tests of verbs');
    },
    settings: async () => settings,
    transport: async () => transport,
    api: async () => api,
    onCleanup: () => undefined,
    cleanup: async () => undefined,
    // The fake's settings are fixed: a derived view differs only in the signal its requests follow.
    derive: ({ signal }) => ({ ...deps, signal: signal ? AbortSignal.any([deps.signal, signal]) : deps.signal }),
  };
  return {
    deps,
    io,
    sent,
    prompts,
    shown,
    assertAllAnswered: () => expect(answers.map((a) => `${a.method} ${a.path}`)).toEqual([]),
  };
}

function lineOf(choice: PromptChoice<unknown>): string {
  return typeof choice.disabled === 'string' ? `${choice.name} ${choice.disabled}` : choice.name;
}

/** The value of the one selectable choice whose line holds the text: none, or several, fails the test. */
function chosen<T>(choices: PromptChoice<T>[], text: string, message: string): T {
  const found = choices.filter((choice) => choice.name.includes(text));
  if (found.length !== 1) throw new Error(`prompt ${message}: ${found.length} choices hold "${text}" in ${JSON.stringify(choices.map((c) => c.name))}`);
  if (found[0]!.disabled) throw new Error(`prompt ${message}: "${text}" cannot be chosen (${String(found[0]!.disabled)})`);
  return found[0]!.value;
}

/** Parses argv with one verb, as main.ts would (errors thrown, never printed or exiting). */
export async function parseVerb(command: Command, argv: string[]): Promise<void> {
  const quiet = (c: Command): void => {
    c.exitOverride();
    c.configureOutput({ writeOut: () => undefined, writeErr: () => undefined });
    c.commands.forEach(quiet);
  };
  quiet(command);
  await command.parseAsync(argv, { from: 'user' });
}

/** A run function that records the options it was called with. */
export function recordRun<O>(): { run: (deps: unknown, opts: O) => Promise<void>; calls: O[] } {
  const calls: O[] = [];
  return { calls, run: async (_deps, opts) => void calls.push(opts) };
}
