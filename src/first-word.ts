// What the first word of a line names, worked out before commander parses it: a command of fleetctl, an alias
// (expanded here, a --shell one run here), or an extension on PATH (run here). The config store is read and PATH
// searched only when the first word is not one of fleetctl's own commands, so those start as fast as without
// aliases and extensions; help reads both too, to list them.
import type { Command } from 'commander';
import type { Deps } from './factory.js';
import type { IOStreams } from './io/streams.js';
import { BUILT_IN_COMMANDS, operandsIn } from './commands/index.js';
import { aliasesFor, aliasRanLine, expandedLine, type Aliases, type AliasRun } from './aliases/line.js';
import type { ListedExtension } from './extensions/listing.js';

/** The line to parse (`at`: where its first operand is), and what help lists; or the exit status of what ran instead (a shell alias, an extension). */
export type FirstWord = { alias?: AliasRun } & ({ ran: number } | { argv: string[]; aliases: Aliases; extensions: ListedExtension[]; at?: number });

/** `root`: the program with its global options only, enough to find the first word. */
export async function readFirstWord(argv: string[], root: Command, deps: Pick<Deps, 'config' | 'env' | 'derive'>, io: IOStreams): Promise<FirstWord> {
  const { group: first, at } = operandsIn(root, argv);
  const aliases = await aliasesFor(first, BUILT_IN_COMMANDS, deps.config);
  const line = expandedLine(argv, at, aliases, (words) => operandsIn(root, words).at);
  const alias = line.alias;
  if (alias?.expanded.kind === 'shell') {
    const { runShellAlias } = await import('./aliases/shell.js');
    // the script's own status, whatever it is: the shell said what failed
    const status = await runShellAlias(alias, deps.env, io, argv[1]);
    if (status !== 0) io.info(aliasRanLine(alias));
    return { alias, ran: status };
  }
  if (first !== undefined && at !== undefined && !alias && !BUILT_IN_COMMANDS.has(first)) {
    const { extensionLine, runExtension } = await import('./extensions/launch.js');
    const extension = extensionLine(argv, at, deps.env);
    if (extension) return { ran: await runExtension(extension, { env: deps.env, io, data: (await deps.config()).read(), derive: deps.derive }, argv[1]) };
  }
  const forHelp = first === undefined || first === 'help';
  const extensions = forHelp ? (await import('./extensions/path-lookup.js')).listedExtensions(deps.env, { builtIns: BUILT_IN_COMMANDS, aliases }) : [];
  return { alias, argv: line.argv, aliases, extensions, at };
}
