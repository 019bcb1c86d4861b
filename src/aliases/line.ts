// An alias on the command line, found and expanded before commander parses it (main.ts): `fleetctl [global flags]
// NAME ARGS` becomes `fleetctl [global flags] EXPANSION`, or a script for the shell. The config store is read for
// this only when the first word is not one of fleetctl's own commands, so the commands themselves start as fast as
// without aliases; help reads it too, to list them.
import { UsageError } from '../errors.js';
import { storedAliases } from '../config/aliases.js';
import type { ConfigStore } from '../config/store.js';
import { shellLine } from '../shared/shell-quote.js';
import { expandAlias, SHELL_PREFIX, type ExpandedAlias } from './expansion.js';

export interface AliasRun {
  name: string;
  expansion: string;
  expanded: ExpandedAlias;
  /** The global flags typed before the alias name. */
  before: string[];
}

export type Aliases = Readonly<Record<string, string>>;

/**
 * The aliases this line needs: none when its first word (`first`) is a command of fleetctl's own, except help
 * (`fleetctl --help`, `help reference` list them). Help is shown whatever the store holds; an alias run with a
 * store that cannot be read says why.
 */
export async function aliasesFor(first: string | undefined, builtIns: ReadonlySet<string>, config: () => Promise<ConfigStore>): Promise<Aliases> {
  const forHelp = first === undefined || first === 'help';
  if (!forHelp && builtIns.has(first)) return {};
  try {
    return storedAliases((await config()).read());
  } catch (error) {
    if (forHelp) return {};
    throw error;
  }
}

/** The line with the alias at argv[at] expanded, and what it expanded, or the line as it was. */
export function expandedLine(argv: string[], at: number | undefined, aliases: Aliases): { argv: string[]; alias?: AliasRun } {
  const name = at === undefined ? undefined : argv[at];
  if (at === undefined || name === undefined || !Object.hasOwn(aliases, name)) return { argv };
  const expansion = aliases[name]!;
  const before = argv.slice(2, at);
  const expanded = expandAlias(name, expansion, argv.slice(at + 1));
  const line = expanded.kind === 'command' ? [...argv.slice(0, at), ...expanded.words] : argv;
  return { argv: line, alias: { name, expansion, expanded, before } };
}

/** What a failing alias says on stderr: which alias it was, and the line it ran. */
export function aliasRanLine(run: AliasRun): string {
  const ran = run.expanded.kind === 'command' ? shellLine(['fleetctl', ...run.before, ...run.expanded.words]) : shellLine(['sh', '-c', run.expanded.script, run.name, ...run.expanded.args]);
  return `alias ${run.name} expanded to: ${ran}`;
}

/** The global flags a --shell alias passes on to the fleetctl its script runs, as the variables fleetctl reads. */
const FLAGS_AS_ENV: Record<string, string> = { '--profile': 'FLEETCTL_PROFILE', '--base-url': 'FLEETCTL_BASE_URL', '--auth-url': 'FLEETCTL_AUTH_URL', '--ca-file': 'FLEETCTL_CA_FILE', '--log-format': 'FLEETCTL_LOG_FORMAT' };
const SWITCHES_AS_ENV: Record<string, [string, string]> = { '--debug': ['FLEETCTL_DEBUG', '1'], '--no-color': ['NO_COLOR', '1'] };

/**
 * The environment of a --shell alias: fleetctl's own, how to call this fleetctl, and the global flags given before
 * the name as the variables fleetctl reads. A flag no variable carries (--sandbox, -o) would be lost on the way to
 * the script's fleetctl: refused, not dropped.
 */
export function shellAliasEnv(run: AliasRun, env: NodeJS.ProcessEnv, executable: string): NodeJS.ProcessEnv {
  const context: NodeJS.ProcessEnv = {};
  for (let i = 0; i < run.before.length; i++) {
    const word = run.before[i]!;
    const at = word.indexOf('=');
    const flag = word.startsWith('--') && at > 0 ? word.slice(0, at) : word;
    if (Object.hasOwn(FLAGS_AS_ENV, flag)) {
      const value = flag === word ? run.before[++i] : word.slice(at + 1);
      if (value !== undefined) context[FLAGS_AS_ENV[flag]!] = value;
    } else if (Object.hasOwn(SWITCHES_AS_ENV, word)) {
      const [name, value] = SWITCHES_AS_ENV[word]!;
      context[name] = value;
    } else {
      throw new UsageError(
        `${flag} before the shell alias ${run.name} would not reach the fleetctl its script runs`,
        `give it inside the script (fleetctl alias list shows it); before a shell alias go only ${[...Object.keys(FLAGS_AS_ENV), ...Object.keys(SWITCHES_AS_ENV)].join(', ')}`,
      );
    }
  }
  return { ...env, ...context, FLEETCTL_ALIAS: run.name, FLEETCTL_EXECUTABLE: executable };
}

/** How the aliases read in `fleetctl --help` and in the reference: a section of their own. */
export function aliasesSection(aliases: Aliases): string {
  const names = Object.keys(aliases).sort();
  if (names.length === 0) return '';
  const width = Math.max(...names.map((name) => name.length));
  const lines = names.map((name) => {
    const expansion = aliases[name]!;
    const shown = expansion.startsWith(SHELL_PREFIX) ? `(shell) ${expansion.slice(SHELL_PREFIX.length)}` : expansion;
    return `  ${name.padEnd(width)}  ${shown}`;
  });
  return `Aliases (fleetctl alias list):\n${lines.join('\n')}\n\n`;
}
