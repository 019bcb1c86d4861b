// alias set|list|delete: the user's own names for command lines, stored in the config store (one map for every
// profile). main.ts expands them before the command line is parsed (src/aliases/line.ts).
import { Command } from 'commander';
import type { Deps } from '../../factory.js';
import { NotFoundError, UsageError } from '../../errors.js';
import { deleteAlias, saveAlias, storedAliases } from '../../config/aliases.js';
import { didYouMeanSuffix } from '../../shared/did-you-mean.js';
import { cutText, quoteInput } from '../../shared/terminal-text.js';
import { shellWord } from '../../shared/shell-quote.js';
import { describeVerb } from '../shared/help.js';
import { completeValues } from '../../completion/values.js';
import { aliasChain, isShellExpansion, SHELL_PREFIX, splitExpansion } from '../../aliases/expansion.js';

type AliasDeps = Pick<Deps, 'config' | 'output' | 'io'>;

/** A word typed as a command: at most 64 characters (a name is read back in every help, list and message). */
const NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

/** fleetctl's own commands, which no alias may hide, and the one a line names (its global flags skipped). */
export interface BuiltIns {
  names: ReadonlySet<string>;
  commandNamed(words: string[]): string | undefined;
}

export function newAliasCommand(deps: AliasDeps, builtIns: BuiltIns): Command {
  const group = new Command('alias').description('Your own names for command lines: fleetctl NAME ARGS runs what the alias expands to');

  const set = new Command('set')
    .description('Make NAME stand for a command line ($1, $2, ... take its arguments; the others are appended)')
    .argument('<name>', 'letters, digits, . _ and -; not the name of a fleetctl command')
    .argument('<expansion>', 'the command line after fleetctl, in quotes (it may start with another alias); with --shell, a shell script')
    .option('--shell', `run the expansion with sh -c, the arguments as $1, $2, ... (stored with a ${SHELL_PREFIX} prefix)`);
  describeVerb(set, {
    output: 'nothing',
    notes:
      'An argument fills each $N that names it, as one word whatever it holds; the arguments no $N names are appended. ' +
      'A --shell alias gets its arguments as $1, $2, ... of the script, and FLEETCTL_ALIAS and FLEETCTL_EXECUTABLE (this fleetctl) in its environment, ' +
      'and the global flags given before the alias name as the variables fleetctl reads (--profile, --base-url, --auth-url, --ca-file, --debug, --no-color; any other is refused: give it in the script).',
    examples: [
      { comment: 'the devices of a fleet: fleetctl fleet-devices FLEET_ID', command: "fleetctl alias set fleet-devices 'devices list --fleet-id $1'" },
      { comment: 'through the shell: fleetctl stale-count prints how many devices are stale', command: "fleetctl alias set stale-count --shell 'fleetctl status --jq .devices.stale'" },
    ],
  });
  set.action(async (name: string, expansion: string, flags: { shell?: boolean }) => {
    requireAliasName(builtIns, name);
    const stored = flags.shell && !isShellExpansion(expansion) ? `${SHELL_PREFIX}${expansion}` : expansion;
    // an expansion may start with another alias (expanded in its turn), never with one that leads back to it
    const aliases = { ...storedAliases((await deps.config()).read()), [name]: stored };
    checkExpansion(builtIns, stored, aliases);
    aliasChain(name, aliases, (words) => builtIns.commandNamed(words));
    const replaced = await saveAlias(await deps.config(), name, stored);
    deps.io.info(`${replaced ? 'Replaced' : 'Set'} alias ${name}: fleetctl ${name} runs ${cutText(describeExpansion(stored), 400)}.`);
  });

  const list = new Command('list').description('List your aliases and what each expands to');
  describeVerb(list, { output: 'records', examples: [{ comment: 'every alias', command: 'fleetctl alias list', given: "fleetctl alias set fleet-devices 'devices list --fleet-id $1'" }] });
  list.action(async () => {
    const aliases = storedAliases((await deps.config()).read());
    const rows = Object.keys(aliases).sort().map((name) => ({ name, expansion: aliases[name]! }));
    await deps.output().list(rows, ['name', 'expansion']);
  });

  const remove = new Command('delete').description('Delete an alias').argument('<name>', 'the alias');
  completeValues(remove, { name: 'alias' });
  describeVerb(remove, { output: 'nothing', examples: [{ comment: 'forget the alias fleet-devices', command: 'fleetctl alias delete fleet-devices', given: "fleetctl alias set fleet-devices 'devices list --fleet-id $1'" }] });
  remove.action(async (name: string) => {
    const store = await deps.config();
    if (!(await deleteAlias(store, name))) {
      const known = Object.keys(storedAliases(store.read()));
      throw new NotFoundError(`no alias ${quoteInput(name)}${didYouMeanSuffix(name, known)}`, 'fleetctl alias list shows yours');
    }
    deps.io.info(`Deleted alias ${name}.`);
  });

  return group.addCommand(set).addCommand(list).addCommand(remove);
}

/** A name an alias may take: a word of its own, not fleetctl's (exit 2 naming the command it would hide). */
function requireAliasName(builtIns: BuiltIns, name: string): void {
  if (builtIns.names.has(name)) throw new UsageError(`${name} is a fleetctl command: an alias cannot shadow it`, 'choose another name for the alias');
  if (!NAME.test(name)) throw new UsageError(`${quoteInput(name)} is not a name for an alias`, 'use up to 64 letters, digits, . _ and -, starting with a letter or digit');
}

/**
 * An expansion runs a fleetctl command or another alias: its first word (after any global flags) must name one,
 * checked now rather than at each use.
 */
function checkExpansion(builtIns: BuiltIns, expansion: string, aliases: Readonly<Record<string, string>>): void {
  if (isShellExpansion(expansion)) {
    if (expansion.slice(SHELL_PREFIX.length).trim() === '') throw new UsageError('the shell script of the alias is empty');
    return;
  }
  const words = splitExpansion(expansion);
  const group = builtIns.commandNamed(words);
  if (group === undefined || !(builtIns.names.has(group) || Object.hasOwn(aliases, group))) {
    const named = group === undefined ? 'no command' : `${quoteInput(group)}, which is no fleetctl command or alias`;
    throw new UsageError(`the expansion ${quoteInput(expansion)} names ${named}`, "start it with a command, as typed after fleetctl: 'devices list --fleet-id $1'; or use --shell");
  }
}

/** How a stored expansion reads in a message: the command line, or the script the shell runs. */
export function describeExpansion(expansion: string): string {
  return isShellExpansion(expansion) ? `sh -c ${shellWord(expansion.slice(SHELL_PREFIX.length))}` : `fleetctl ${expansion}`;
}
