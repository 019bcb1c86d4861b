// An alias on the command line, found and expanded before commander parses it (main.ts): `fleetctl [global flags]
// NAME ARGS` becomes `fleetctl [global flags] EXPANSION`, or a script for the shell. The config store is read for
// this only when the first word is not one of fleetctl's own commands, so the commands themselves start as fast as
// without aliases; help reads it too, to list them.
import { UsageError } from '../errors.js';
import { storedAliases } from '../config/aliases.js';
import type { ConfigStore } from '../config/store.js';
import { shellLine } from '../shared/shell-quote.js';
import { carriedFlagNames, flagsAsEnv, FLAGS_FLEETCTL_READS } from '../config/flags-as-env.js';
import { aliasChain, expandAlias, SHELL_PREFIX, type ExpandedAlias } from './expansion.js';

export interface AliasRun {
  name: string;
  expansion: string;
  expanded: ExpandedAlias;
  /** The global flags before the alias whose expansion ran (typed before the name, or given by an alias before it). */
  before: string[];
  /** The aliases it went through, when its expansion started with another alias. */
  chain?: string[];
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

/**
 * The line with the alias at argv[at] expanded, and what it expanded, or the line as it was. An expansion that
 * starts with another alias is expanded again (`operandAt`: where a line's command is, after its global flags),
 * through the chain aliasChain checked for loops.
 */
export function expandedLine(argv: string[], at: number | undefined, aliases: Aliases, operandAt: (argv: string[]) => number | undefined): { argv: string[]; alias?: AliasRun } {
  const name = at === undefined ? undefined : argv[at];
  if (at === undefined || name === undefined || !Object.hasOwn(aliases, name)) return { argv };
  const chain = aliasChain(name, aliases, (words) => {
    const index = operandAt(['', '', ...words]);
    return index === undefined ? undefined : words[index - 2];
  });
  let [line, index] = [argv, at];
  let alias: AliasRun | undefined;
  for (const step of chain) {
    const expanded = expandAlias(step, aliases[step]!, line.slice(index + 1));
    // the global flags before this alias: those typed, and those of the expansions before it
    alias = { name, expansion: aliases[name]!, expanded, before: line.slice(2, index), ...(chain.length > 1 ? { chain } : {}) };
    if (expanded.kind === 'shell') return { argv, alias };
    line = [...line.slice(0, index), ...expanded.words];
    index = operandAt(line) ?? line.length;
  }
  return { argv: line, alias };
}

/** What a failing alias says on stderr: which alias it was, and the line it ran. */
export function aliasRanLine(run: AliasRun): string {
  const ran = run.expanded.kind === 'command' ? shellLine(['fleetctl', ...run.before, ...run.expanded.words]) : shellLine(['sh', '-c', run.expanded.script, run.name, ...run.expanded.args]);
  return `alias ${run.chain ? run.chain.join(' → ') : run.name} expanded to: ${ran}`;
}

/**
 * The environment of a --shell alias: fleetctl's own, how to call this fleetctl, and the global flags given before
 * the name as the variables fleetctl reads. A flag no variable carries (--sandbox, -o) would be lost on the way to
 * the script's fleetctl: refused, not dropped.
 */
export function shellAliasEnv(run: AliasRun, env: NodeJS.ProcessEnv, executable: string): NodeJS.ProcessEnv {
  const context = flagsAsEnv(run.before, FLAGS_FLEETCTL_READS, (flag) =>
    new UsageError(
      `${flag} before the shell alias ${run.name} would not reach the fleetctl its script runs`,
      `give it inside the script (fleetctl alias list shows it); before a shell alias go only ${carriedFlagNames(FLAGS_FLEETCTL_READS).join(', ')}`,
    ),
  );
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
