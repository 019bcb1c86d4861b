// Builds the command tree, runs it, and is the only place that turns errors into exit codes.
import { Command, CommanderError, Option } from 'commander';
import { ApiError, CancelledError, DeclinedError, diskFullOf, ExitCode, FleetctlError, isRequestFailure, type ExitCodeValue } from './errors.js';
import { OWNED_SIGNALS } from './io/signals.js';
import { watchStdoutEnd } from './io/stdout-end.js';
import { IOStreams } from './io/streams.js';
import { createDeps, type Deps, type Runtime } from './factory.js';
import { debugBeforeParse, type GlobalOptions } from './config/global-flags.js';
import type { SettingsOverride } from './config/settings.js';
import { OUTPUT_FORMATS } from './output/writers/registry.js';
import { addCommandGroups, operandsIn } from './commands/index.js';
import { aliasesSection, aliasRanLine, type Aliases, type AliasRun } from './aliases/line.js';
import { extensionsSection, type ListedExtension } from './extensions/listing.js';
import { readFirstWord } from './first-word.js';
import { LOG_FORMATS, logsAsJson, type LogFormat } from './io/log-lines.js';
import { fitHelp, needsStoredProfile } from './commands/shared/help.js';
import { setEpilogue } from './commands/shared/verb-record.js';
import { namedProfile, requireStoredProfile } from './config/settings.js';
import { completeValues } from './completion/values.js';
import { cutText, quoteInput, safeText, terminalSafeJson } from './shared/terminal-text.js';
import { describeMemberErrors } from './api/problem-members.js';
import { asksForGuided, guidedLine, refuseGuidedAfterCommand } from './guided/entry.js';
import { EXIT_CODES_HELP } from './exit-codes-help.js';

declare const __FLEETCTL_VERSION__: string;
export const VERSION = typeof __FLEETCTL_VERSION__ === 'string' ? __FLEETCTL_VERSION__ : '0.0.0-dev';
declare const __FLEETCTL_VERSION_LINE__: string;
/** What `fleetctl --version` prints (src/build/build.mjs): the product and its npm package, then the version. */
export const VERSION_LINE = typeof __FLEETCTL_VERSION_LINE__ === 'string' ? __FLEETCTL_VERSION_LINE__ : `fleetctl ${VERSION}`;

/** How long a command may take to stop after Ctrl-C or SIGTERM before the process ends regardless. */
const STOP_GRACE_MS = 1500;

/**
 * The command tree: with argv, only the command group it names (every group for help and completion). The user's
 * aliases and the extensions on PATH, when given, are listed in the program's help. `root`: the program already
 * made to find the first word (rootCommand), made once per call.
 */
export async function buildProgram(deps: Deps, argv?: string[], aliases: Aliases = {}, extensions: readonly ListedExtension[] = [], root: Command = rootCommand(deps)): Promise<Command> {
  const program = root;
  // after the options, fitted to the width with them (fitHelp)
  setEpilogue(program, `${aliasesSection(aliases)}${extensionsSection(extensions)}Examples:\n  # try it offline against the embedded sandbox\n  $ fleetctl --sandbox devices list\n\n  # on a terminal: choose a command step by step\n  $ fleetctl --guided\n\n${EXIT_CODES_HELP}\n`);
  await addCommandGroups(program, deps, argv);
  configureTree(program, deps);
  return program;
}

/** The program with its global options, before any group is added: enough to find the first word of a line. */
function rootCommand(deps: Deps): Command {
  const program = new Command('fleetctl')
    .description('Operate fleets, devices and webhooks through the Fleet and Telematics Developer API.')
    .version(VERSION_LINE, '-V, --version', 'print the version')
    .option('--profile <name>', 'configuration profile to use (env FLEETCTL_PROFILE)')
    .option('--base-url <url>', 'API base URL (env FLEETCTL_BASE_URL)')
    .option('--auth-url <url>', 'token issuer URL (env FLEETCTL_AUTH_URL)')
    .addOption(new Option('-o, --output <format>', 'output format').choices(OUTPUT_FORMATS))
    .option('--json', 'short for --output json')
    .option('--columns <list>', 'table/CSV columns, comma-separated (dotted paths for nested fields)')
    .option('--jq <expression>', 'filter JSON output with jq: each item of a list, or the one resource; strings print unquoted')
    .option('--slurp', 'with --jq: the filter gets a whole list as one array (held in memory)')
    .option('--no-color', 'disable colour (also NO_COLOR, TERM=dumb, CI=true)')
    .option('--no-input', 'never prompt; fail when input is missing (also CI=true)')
    .option('--debug', 'trace HTTP requests on stderr, secrets redacted (env FLEETCTL_DEBUG=1)')
    .addOption(new Option('--log-format <format>', 'stderr messages as text, or json: one object a line (env FLEETCTL_LOG_FORMAT)').choices(LOG_FORMATS))
    .option('--timeout <seconds>', 'per-request timeout in seconds (default 30)')
    .option('--max-retries <n>', 'retries for 429, 503 and connection failures (default 3)')
    .option('--max-retry-wait <seconds>', 'longest Retry-After to wait for (default 60)')
    .option('--ca-file <file>', 'PEM bundle of certificate authorities to trust besides the usual ones (env FLEETCTL_CA_FILE)')
    .option('--insecure', 'allow credentials over plain http to a non-loopback host')
    .option('--sandbox', 'run against an embedded local sandbox, as sandbox-admin')
    .option('--guided', 'choose a command, its arguments and flags step by step, see its line, then run it (a terminal; fleetctl alone too)')
    .showSuggestionAfterError();
  completeValues(program, { '--profile': 'profile', '--ca-file': 'file' });

  program.hook('preAction', async (_program, verb) => {
    const g = program.opts<GlobalOptions>();
    deps.io.noColor = g.color === false;
    deps.io.noInput = g.input === false;
    if (g.logFormat) deps.io.logFormat = g.logFormat;
    // a mistyped --profile or FLEETCTL_PROFILE is named before anything else is said (with --sandbox no profile is read)
    const named = !g.sandbox && needsStoredProfile(verb) ? namedProfile(g, deps.env) : undefined;
    if (named) requireStoredProfile(named.name, (await deps.config()).read(), named.by);
    // --jq is compiled here: a bad expression is refused before any request
    await deps.output().prepare();
  });
  return program;
}

/** commander's own output and errors go through our streams, and never exit the process itself. */
function configureTree(command: Command, deps: Deps): void {
  command.exitOverride();
  command.configureOutput({
    writeOut: (text) => deps.io.out.write(text),
    writeErr: (text) => deps.io.err.write(text),
    // undefined is commander's own default (80), which its types leave out
    getOutHelpWidth: () => deps.io.helpWidth('out') as number,
    getErrHelpWidth: () => deps.io.helpWidth('err') as number,
    outputError: (text, write) => {
      const message = commanderMessage(text);
      if (!logsAsJson(logFormatOf(command, deps))) return write(message.replace(/^error: /, `${deps.io.errTheme().error('Error:')} `));
      // as every message with --log-format json: the refusal an error line, commander's suggestion a hint line
      const [first = '', ...rest] = message.trimEnd().split('\n');
      deps.io.error(first.replace(/^error: /, ''));
      for (const line of rest) deps.io.hint(line.replace(/^\((.*)\)$/, '$1'));
    },
  });
  fitHelp(command);
  for (const sub of command.commands) configureTree(sub, deps);
}

/** The --log-format among the global flags before the first word (what commander has not read yet). */
function applyLogFormatOnLine(argv: string[], root: Command, io: IOStreams): void {
  const words = argv.slice(2, operandsIn(root, argv).at);
  const at = words.findIndex((word) => word === '--log-format' || word.startsWith('--log-format='));
  if (at < 0) return;
  const value = words[at]!.includes('=') ? words[at]!.slice('--log-format='.length) : words[at + 1];
  const format = LOG_FORMATS.find((known) => known === value);
  if (format) io.logFormat = format;
}

/**
 * The log format while commander parses: its refusal comes before the preAction hook applies --log-format, which
 * the root has read by then (wherever it stood on the line), else FLEETCTL_LOG_FORMAT as the streams read it.
 */
function logFormatOf(command: Command, deps: Deps): LogFormat {
  let root = command;
  while (root.parent) root = root.parent;
  const flag = root.opts<GlobalOptions>().logFormat;
  if (flag) deps.io.logFormat = flag;
  return deps.io.logFormat;
}

/**
 * commander quotes the user's input in its messages ('--bad-flag', an invalid choice): made visible, and cut
 * when long, as fleetctl's own messages do.
 */
function commanderMessage(text: string): string {
  const quoted = text.replace(/'([^'\n]*)'/g, (whole, inner: string) => (inner.length > MAX_QUOTED ? quoteInput(inner, MAX_QUOTED) : whole));
  return safeText(quoted, { newlines: true })
    .split('\n')
    .map((line) => cutText(line, MAX_LINE))
    .join('\n');
}
const MAX_QUOTED = 80;
const MAX_LINE = 400;

export async function main(argv: string[], runtime?: Partial<Runtime>): Promise<ExitCodeValue> {
  const io = runtime?.io ?? IOStreams.fromProcess(process.env);
  const controller = new AbortController();
  const stdoutGone = new AbortController();
  const stop = AbortSignal.any([controller.signal, stdoutGone.signal]);
  let program: Command | undefined;
  const deps = createDeps(
    { io, env: runtime?.env ?? process.env, signal: runtime?.signal ?? stop, interruptSignal: runtime?.signal ?? controller.signal, startOverride: startEmbeddedSandbox, argv, ...runtime },
    () => program?.opts<GlobalOptions>() ?? {},
  );
  // Ctrl-C, and SIGTERM (a CI job cancelled, a service stopped), stop the command cleanly: the cleanups still
  // run (an embedded sandbox saves its state). A second signal ends the process at once, and so does the end of
  // a grace period when the command does not stop. The handlers stay installed until the end, so no library's
  // exit-on-signal hook fires.
  // A hang-up (an SSH session dropped) is a SIGTERM whose exit code says so; stderr may be gone by then, and a
  // write to it that fails is ignored (onStderrError below).
  let stoppedWith: ExitCodeValue = ExitCode.interrupted;
  const onSignal = (signal: NodeJS.Signals) => {
    if (controller.signal.aborted) process.exit(stoppedWith);
    stoppedWith = signal === 'SIGHUP' ? ExitCode.hungUp : ExitCode.interrupted;
    controller.abort(new CancelledError(signal === 'SIGTERM' ? 'terminated' : signal === 'SIGHUP' ? 'hung up' : undefined));
    // Something the signal cannot reach (a read blocked in a worker thread) must not keep the process alive:
    // it ends within 2 s of the signal, with the command's own exit code if it did return.
    setTimeout(() => {
      if (process.exitCode === undefined) io.info('Interrupted.');
      process.exit(process.exitCode ?? stoppedWith);
    }, STOP_GRACE_MS).unref();
  };
  const hungUp = () => controller.signal.aborted && stoppedWith === ExitCode.hungUp;
  const stdout = watchStdoutEnd(io, stdoutGone, !runtime?.io);
  if (!runtime?.signal) for (const signal of OWNED_SIGNALS) process.on(signal, onSignal);
  if (!runtime?.io) process.stdout.on('error', stdout.onError);
  // A closed stderr (`2>&1 | head`, a log reader gone) leaves messages nowhere to go: no reason to fail the
  // command, whose data may still be flowing to stdout.
  const onStderrError = () => undefined;
  if (!runtime?.io) process.stderr.on('error', onStderrError);
  let alias: AliasRun | undefined;
  let root: Command | undefined;
  try {
    // an alias is expanded before the line is parsed, and only the group its expansion names is loaded
    // the program's options tell where the first word is; the same program then gets the group it names
    root = rootCommand(deps);
    const word = await readFirstWord(argv, root, deps, io);
    alias = word.alias;
    if ('ran' in word) return word.ran as ExitCodeValue;
    refuseGuidedAfterCommand(word.argv, word.at);
    const guided = asksForGuided(word.argv, word.at, io);
    program = await buildProgram(deps, guided ? undefined : word.argv, word.aliases, word.extensions, root);
    const run = guided ? await guidedLine(deps, program, word.argv) : word.argv;
    if (run) await program.parseAsync(run);
    if (await stdout.failed()) return reportError(stdout.full, deps, false, false);
    // A command that runs until stopped (a --follow, a --watch, `webhook listen`, `fleetctl sandbox`) ends well by
    // Ctrl-C or SIGTERM, as documented; stopped by a hang-up it says so, for whatever supervises it: the session
    // that started it went away (exit 129, as for every other command)
    return hungUp() ? ExitCode.hungUp : ExitCode.ok;
  } catch (error) {
    if (error === stdout.closed) return ExitCode.ok;
    if (await stdout.failed()) return reportError(stdout.full, deps, false, false);
    // refused before commander parsed the line (an extension's or an alias's line, --guided): its --log-format still holds
    if (root && !program?.opts<GlobalOptions>().logFormat) applyLogFormatOnLine(argv, root, io);
    const code = reportError(error, deps, controller.signal.aborted || runtime?.signal?.aborted === true, deps.debug() || (program === undefined && debugBeforeParse(argv)));
    // what the user typed is not what failed: the line it stood for is
    if (alias && code !== ExitCode.ok && code !== ExitCode.interrupted) io.info(aliasRanLine(alias));
    return code === ExitCode.interrupted ? stoppedWith : code;
  } finally {
    await deps.cleanup().catch(() => undefined);
    for (const signal of OWNED_SIGNALS) process.removeListener(signal, onSignal);
  }
}

/** What --sandbox runs against: loaded only then (the sandbox is a large part of the bundle). */
async function startEmbeddedSandbox(deps: Deps): Promise<SettingsOverride> {
  const embedded = await import('./commands/sandbox/embedded.js');
  return embedded.startEmbeddedSandbox(deps);
}

function reportError(error: unknown, deps: Deps, interrupted: boolean, debug: boolean): ExitCodeValue {
  if (error instanceof CommanderError) {
    if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version' || error.code === 'commander.help') return ExitCode.ok;
    return error.exitCode === 0 ? ExitCode.ok : ExitCode.usage;
  }
  if (interrupted || error instanceof CancelledError) {
    deps.io.info('Interrupted.');
    return ExitCode.interrupted;
  }
  const machine = wantsMachineOutput(deps);
  if (error instanceof ApiError) {
    if (machine) {
      const problem = error.problem ?? { status: error.status, title: error.message };
      const document = error.resume ? { ...problem, resume: error.resume } : problem;
      if (logsAsJson(deps.io.logFormat)) deps.io.error(error.message, { problem: document });
      else deps.io.err.write(`${terminalSafeJson(document)}\n`);
    } else {
      const tag = error.code ? `${error.code}, HTTP ${error.status}` : `HTTP ${error.status}`;
      // the service's words, which may quote the request back at length: -o json has the whole problem
      const said = cutText(error.detail ?? error.title ?? error.message, MAX_LINE);
      // which members failed, when the problem names them in a shape read generically (bounded, "and N more")
      const members = describeMemberErrors(error.problem);
      const text = members === undefined ? said : `${said.replace(/[.:;\s]+$/, '')}: ${members}`;
      // a problem with nothing but its code (all the spec promises) reads `HTTP 404 (its.code)`
      const named = error.code && !text.includes(error.code) ? `${text} (${error.code})` : text;
      deps.io.error(text.includes(`HTTP ${error.status}`) ? named : `${text} (${tag})`);
      if (error.hint) deps.io.hint(error.hint);
    }
    return error.exitCode;
  }
  // no answer came for a later page of a list (its connection refused or dropped): for a program, a document too,
  // with where to resume (commands/shared/paging.ts set it only when errors are JSON)
  if (machine && isRequestFailure(error) && error.resume) {
    deps.io.err.write(`${terminalSafeJson({ title: error.message, ...(error.hint ? { hint: error.hint } : {}), resume: error.resume })}\n`);
    return error.exitCode;
  }
  if (error instanceof DeclinedError) {
    deps.io.info(error.said);
    return error.exitCode;
  }
  // a typed error is an expected outcome, said in full by its message: a stack trace is for bugs (--debug); a write
  // that found the disk full is one wherever it happened (a cache, a download), named by the file Node's error names
  const typed = error instanceof FleetctlError ? error : diskFullOf(error);
  if (typed) {
    deps.io.error(typed.message);
    if (typed.hint) deps.io.hint(typed.hint);
    return typed.exitCode;
  }
  const message = error instanceof Error ? error.message : String(error);
  deps.io.error(`unexpected failure: ${message}`);
  if (debug && error instanceof Error && error.stack) deps.io.info(error.stack);
  else deps.io.hint('run again with --debug for details, and report it if it persists');
  return ExitCode.internal;
}

function wantsMachineOutput(deps: Deps): boolean {
  try {
    return deps.output().errorsAsJson(deps.io.stderrIsTTY);
  } catch {
    return false;
  }
}
