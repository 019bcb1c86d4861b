// Deps for unit tests of verbs: test streams, a real ApiClient over a scripted transport, a scripted prompter,
// and settings without a config file. Every scripted answer must be used: checked when the test ends.
import { expect } from 'vitest';
import { Command } from 'commander';
import { IOStreams, type TestIOStreams } from '../../src/io/streams.js';
import { Output } from '../../src/output/render.js';
import type { OutputFormat } from '../../src/output/writers/registry.js';
import { ApiClient } from '../../src/api/client.js';
import { silentTracer } from '../../src/http/trace.js';
import { DEFAULT_RETRY_POLICY } from '../../src/shared/retry.js';
import { operation } from '../../src/openapi/operations.js';
import type { PromptChoice, Prompter } from '../../src/io/prompter.js';
import type { Clock } from '../../src/io/clock.js';
import type { Settings } from '../../src/config/settings.js';
import type { Deps } from '../../src/factory.js';
import type { TokenSource } from '../../src/auth/tokens.js';
import { memoryConfigStore } from '../../src/config/store.js';
import { createLedger } from '../../src/ledger/recorder.js';
import { bundledDocument, type OpenApiDoc } from '../../src/api/served-document.js';
import { composeDocument } from '../../src/openapi/document-shapes.js';
import { registerFake } from '../support/fakes.js';
import { scriptedTransport, type ScriptedAnswer, type SentRequest } from '../support/scripted-transport.js';

export type { ScriptedAnswer, SentRequest };

export const BASE_URL = 'https://api.fleet.test';

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
  /** The document the service serves (deps.servedDocument); by default none is, and the bundled one stands in. */
  servedDocument?: OpenApiDoc;
}

export interface FakeDeps {
  deps: Deps;
  io: TestIOStreams;
  sent: SentRequest[];
  /** The audit ledger's lines, once deps.ledger().flush() has written them. */
  ledgerLines: string[];
  prompts: string[];
  /** The lists search and checkbox prompts showed, in order. */
  shown: ShownList[];
  /** Fails now when a scripted answer was never asked for (the end of the test checks it anyway). */
  assertAllAnswered(): void;
  /** Scripted transport answers may stay unused: for a test that means it, saying why. */
  allowUnanswered(why: string): void;
  /** The errors the transport and the prompter threw for what they refused (a test that provokes them takes them). */
  takeRefusals(): unknown[];
}

export function fakeDeps(opts: FakeDepsOptions = {}): FakeDeps {
  const io = IOStreams.forTest({ tty: opts.tty ?? false, stdin: opts.stdin ?? '' });
  const prompts: string[] = [];
  const inputs = [...(opts.inputs ?? [])];
  const searches = [...(opts.searches ?? [])];
  const checks = [...(opts.checks ?? [])];
  const shown: ShownList[] = [];
  // what the fake refused, kept for the end of the test too: the code under test may catch what it throws
  const refused: Error[] = [];
  const refuse = (message: string): Error => {
    const error = new Error(message);
    refused.push(error);
    return error;
  };
  registerFake({
    verify() {
      if (refused.length > 0) throw refused[0];
      expect({ inputs, searches, checks }, 'scripted prompt answers left unused').toEqual({ inputs: [], searches: [], checks: [] });
    },
  });
  const scopes: string[] = [];
  const transport = scriptedTransport(opts.answers ?? [], () => scopes.at(-1));
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
      if (answer === undefined) throw refuse(`unexpected prompt ${message}`);
      const verdict = o?.validate?.(answer) ?? true;
      // the prompt's own validation refusing a scripted answer is behaviour under test, not the fake refusing
      if (verdict !== true) throw new Error(`prompt ${message} rejected ${answer}: ${verdict}`);
      return answer;
    },
    password: async () => {
      throw refuse('unexpected password prompt');
    },
    async confirm(message) {
      prompts.push(message);
      const answer = inputs.shift();
      if (answer === undefined) throw refuse(`unexpected confirmation ${message}`);
      return answer === 'y';
    },
    async search(message, o) {
      prompts.push(message);
      const answer = searches.shift();
      if (!answer) throw refuse(`unexpected search prompt ${message}`);
      const items = await o.source(answer.term ?? '', new AbortController().signal);
      shown.push({ message, term: answer.term, lines: items.map((item) => ('separator' in item ? item.separator : lineOf(item))) });
      return chosen(items.filter((item) => !('separator' in item)) as PromptChoice<never>[], answer.choose, message, refuse);
    },
    async checkbox(message, o) {
      prompts.push(message);
      const answer = checks.shift();
      if (!answer) throw refuse(`unexpected checkbox prompt ${message}`);
      shown.push({ message, lines: o.choices.map(lineOf) });
      return answer.map((text) => chosen(o.choices, text, message, refuse));
    },
    async select(message) {
      throw refuse(`unexpected select prompt ${message}`);
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
    ledger_file: none,
    client_secret_command: none,
  };
  const store = memoryConfigStore();
  // the ledger's lines, as it would append them (written when the test calls deps.ledger().flush())
  const ledgerLines: string[] = [];
  const ledger = createLedger({ env: {}, clock, configDir: () => '/nonexistent/fleetctl-test', settings: async () => settings, warn: (line) => io.warn(line), argv: [], append: async (_file, line) => void ledgerLines.push(line) });
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
      throw refuse('no keychain in unit tests of verbs');
    },
    settings: async () => settings,
    transport: async () => transport,
    api: async () => api,
    servedDocument: async () => (opts.servedDocument ? { document: await composeDocument(opts.servedDocument), source: 'served' } : { document: await bundledDocument(), source: 'bundled' }),
    servedDocumentAtHand: () => false,
    ledger: () => ledger,
    onCleanup: () => undefined,
    cleanup: async () => undefined,
    // The fake's settings are fixed: a derived view differs only in the signal its requests follow.
    derive: ({ signal }) => ({ ...deps, signal: signal ? AbortSignal.any([deps.signal, signal]) : deps.signal }),
  };
  return {
    deps,
    io,
    sent: transport.sent,
    ledgerLines,
    prompts,
    shown,
    assertAllAnswered: () => transport.assertAllAnswered(),
    allowUnanswered: (why) => transport.allowUnanswered(why),
    takeRefusals: () => [...refused.splice(0), ...transport.takeRefusals()],
  };
}

function lineOf(choice: PromptChoice<unknown>): string {
  return typeof choice.disabled === 'string' ? `${choice.name} ${choice.disabled}` : choice.name;
}

/** The value of the one selectable choice whose line holds the text: none, or several, fails the test. */
function chosen<T>(choices: PromptChoice<T>[], text: string, message: string, refuse: (message: string) => Error): T {
  const found = choices.filter((choice) => choice.name.includes(text));
  if (found.length !== 1) throw refuse(`prompt ${message}: ${found.length} choices hold "${text}" in ${JSON.stringify(choices.map((c) => c.name))}`);
  if (found[0]!.disabled) throw refuse(`prompt ${message}: "${text}" cannot be chosen (${String(found[0]!.disabled)})`);
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
