// `fleetctl [global flags] NAME ARGS` run as the extension `fleetctl-NAME` on PATH, when NAME is neither a command
// of fleetctl nor an alias. The extension gets its arguments as they were typed, the terminal's streams, the
// signals fleetctl receives, and the profile's context in its environment; fleetctl ends with its exit status.
// It never gets the client secret: it asks `$FLEETCTL_EXECUTABLE auth token --scope ...` for a token, which that
// fleetctl gets from this one, over the token broker's socket (token-broker.ts), when the secret is not its to read.
import path from 'node:path';
import { ConfigError, UsageError } from '../errors.js';
import type { ConfigData } from '../config/store.js';
import type { Deps } from '../factory.js';
import { carriedFlagNames, flagsAsEnv, FLAGS_FLEETCTL_READS, type CarriedFlags } from '../config/flags-as-env.js';
import { outputFormat } from '../config/global-flags.js';
import { environmentVariableFor, namedProfile, requireStoredProfile, resolveSettings } from '../config/settings.js';
import type { IOStreams } from '../io/streams.js';
import { findExtension, type ExtensionOnPath } from './path-lookup.js';
import { BROKER_VARIABLE } from './broker-variable.js';
import type { TokenBroker } from './token-broker.js';

/** The variables that carry the client secret, or the command that prints it: none reaches an extension. */
export const SECRET_VARIABLES = [environmentVariableFor('client_secret'), environmentVariableFor('client_secret_command')];

/** Besides what fleetctl reads itself, the output preferences, for the extension to honour. */
const CARRIED: CarriedFlags = {
  values: { ...FLAGS_FLEETCTL_READS.values, '-o': 'FLEETCTL_OUTPUT', '--output': 'FLEETCTL_OUTPUT' },
  switches: {
    ...FLAGS_FLEETCTL_READS.switches,
    '--json': { FLEETCTL_OUTPUT: 'json' },
    '--no-color': { NO_COLOR: '1', FLEETCTL_NO_COLOR: '1' },
    '--no-input': { FLEETCTL_NO_INPUT: '1' },
  },
};

export interface ExtensionLine {
  extension: ExtensionOnPath;
  /** The global flags typed before the name. */
  before: string[];
  args: string[];
}

/** The extension the word at argv[at] names, or undefined when PATH has none of that name. */
export function extensionLine(argv: string[], at: number, env: NodeJS.ProcessEnv): ExtensionLine | undefined {
  const extension = findExtension(argv[at]!, env);
  return extension && { extension, before: argv.slice(2, at), args: argv.slice(at + 1) };
}

/**
 * The extension's environment: fleetctl's own; the profile's context as fleetctl resolves it (flags > environment >
 * profile): FLEETCTL_PROFILE, FLEETCTL_BASE_URL, FLEETCTL_AUTH_URL; the output preferences FLEETCTL_OUTPUT (table
 * unless -o or --json said otherwise), FLEETCTL_NO_COLOR and FLEETCTL_NO_INPUT; FLEETCTL_EXTENSION, its name; and
 * FLEETCTL_EXECUTABLE, the fleetctl that runs it. A global flag that no variable carries (--sandbox, --jq) is
 * refused rather than lost.
 */
export function extensionEnv(line: ExtensionLine, env: NodeJS.ProcessEnv, data: ConfigData, executable: string): NodeJS.ProcessEnv {
  const name = line.extension.name;
  const flags = flagsAsEnv(line.before, CARRIED, (flag) =>
    new UsageError(`${flag} before the extension ${name} would not reach it`, `give the extension its own flags after its name; before it go only ${carriedFlagNames(CARRIED).join(', ')}`),
  );
  // the format -o named, checked as -o is (the default when none was given)
  const output = outputFormat({ output: flags.FLEETCTL_OUTPUT });
  const given = { profile: flags.FLEETCTL_PROFILE, baseUrl: flags.FLEETCTL_BASE_URL, authUrl: flags.FLEETCTL_AUTH_URL, caFile: flags.FLEETCTL_CA_FILE };
  const named = namedProfile(given, env);
  if (named) requireStoredProfile(named.name, data, named.by);
  const settings = resolveSettings(given, env, data);
  const context: NodeJS.ProcessEnv = { ...flags, FLEETCTL_PROFILE: settings.profile.value, FLEETCTL_OUTPUT: output, FLEETCTL_EXTENSION: name, FLEETCTL_EXECUTABLE: executable };
  if (settings.base_url.value) context.FLEETCTL_BASE_URL = settings.base_url.value;
  if (settings.auth_url.value) context.FLEETCTL_AUTH_URL = settings.auth_url.value;
  return { ...env, ...context };
}

/**
 * Runs the extension; its exit status is fleetctl's. `program`: argv[1] of the line, how the extension calls this
 * very fleetctl (bin/fleetctl.js, or a single executable), whatever PATH holds. Its environment has no secret: when
 * fleetctl's own carried it, a token broker answers for the profile's credentials (when they are usable) at
 * FLEETCTL_TOKEN_BROKER while the extension runs.
 */
export async function runExtension(line: ExtensionLine, deps: { env: NodeJS.ProcessEnv; io: IOStreams; data: ConfigData; derive: Deps['derive'] }, program: string | undefined): Promise<number> {
  const executable = path.resolve(program ?? process.execPath);
  const env = extensionEnv(line, deps.env, deps.data, executable);
  // a secret kept elsewhere (keychain, file, a profile's command) the extension's fleetctl reads itself, as this one would
  const broker = SECRET_VARIABLES.some((name) => env[name]) ? await brokerFor(deps.derive({ env })) : undefined;
  const { runChild } = await import('../io/child-run.js');
  try {
    return await runChild({ file: line.extension.path, args: line.args, env: withoutSecret(env, broker), forwardSignals: true }, deps.io);
  } catch (error) {
    // found executable a moment ago: a file the system cannot start (no #! line, a binary for another machine)
    const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new ConfigError(`the extension ${line.extension.name} (${line.extension.path}) could not be started: ${code}`, 'a script needs a #! line naming its interpreter; see fleetctl extension list');
  } finally {
    await broker?.close();
  }
}

/**
 * The environment without the secret's variables; with the broker's socket when one runs. Without one (a fleetctl
 * that runs inside an extension has no secret), a broker the environment names already is the one to ask.
 */
export function withoutSecret(env: NodeJS.ProcessEnv, broker: Pick<TokenBroker, 'socket'> | undefined): NodeJS.ProcessEnv {
  const kept = Object.fromEntries(Object.entries(env).filter(([name]) => !SECRET_VARIABLES.includes(name)));
  return broker ? { ...kept, [BROKER_VARIABLE]: broker.socket } : kept;
}

/**
 * A broker for the settings the extension runs with (`view`: the extension's environment, its flags included), only
 * when an API client can be built from them; when none can, none runs and `auth token` in the extension says why.
 */
async function brokerFor(view: Pick<Deps, 'api'>): Promise<TokenBroker | undefined> {
  let api;
  try {
    api = await view.api();
  } catch {
    return undefined;
  }
  const [{ startTokenBroker }, { tokenForScopes }] = await Promise.all([import('./token-broker.js'), import('../auth/token-for-scopes.js')]);
  return startTokenBroker((asked) => tokenForScopes(api, asked));
}
