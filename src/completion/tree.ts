// The command tree as completion sees it: commands, their flags, which flags take a value, and how each value
// (flag value or positional argument) completes. Hidden commands and options stay out of it.
import { Help, type Argument, type Command, type Option } from 'commander';
import { valueCompletionOf, type ValueCompletion } from './values.js';

/** The hidden command the scripts call for values they cannot know in advance (profiles, ids). */
export const COMPLETE_COMMAND = '__complete';

export interface OptionNode {
  flags: string[];
  takesValue: boolean;
  values?: ValueCompletion;
}

export interface ArgumentNode {
  name: string;
  variadic: boolean;
  values?: ValueCompletion;
}

export interface CommandNode {
  /** Words from the program to this command, space-separated; '' for the program itself. */
  path: string;
  subcommands: string[];
  /** Its own flags; the program's flags (`global`) apply everywhere. */
  options: OptionNode[];
  arguments: ArgumentNode[];
}

export interface CompletionTree {
  name: string;
  global: OptionNode[];
  commands: CommandNode[];
}

/**
 * The subcommands help lists, in their order. Commander declares no public hidden flag on a command (an option's
 * `hidden` is public), but its Help does say which commands it shows: asking it keeps help, the manual and
 * completion agreeing on every command added with `{ hidden: true }`, whoever adds it. Its implicit `help [command]`
 * is not one of the tree's commands, so it is left out.
 */
export function visibleSubcommands(command: Command): Command[] {
  return new Help().visibleCommands(command).filter((sub) => command.commands.includes(sub));
}

function optionNode(option: Option): OptionNode {
  const flags = [option.short, option.long].filter((flag): flag is string => Boolean(flag));
  const takesValue = option.required || option.optional;
  return { flags, takesValue, values: takesValue ? valueCompletionOf(option) : undefined };
}

function argumentNode(argument: Argument): ArgumentNode {
  return { name: argument.name(), variadic: argument.variadic, values: valueCompletionOf(argument) };
}

const FIRST_WORD_ALIAS: ArgumentNode = { name: 'alias', variadic: false, values: 'alias-or-extension' };

export function completionTree(program: Command): CompletionTree {
  const commands: CommandNode[] = [];
  const visit = (command: Command, path: string, isProgram: boolean) => {
    const visible = visibleSubcommands(command);
    commands.push({
      path,
      subcommands: visible.map((sub) => sub.name()).sort(),
      options: isProgram ? [] : command.options.filter((o) => !o.hidden).map(optionNode),
      // the program's first word is a command, or one of the user's aliases or extensions (asked of __complete, as they change)
      arguments: isProgram ? [FIRST_WORD_ALIAS] : command.registeredArguments.map(argumentNode),
    });
    for (const sub of visible) visit(sub, path ? `${path} ${sub.name()}` : sub.name(), false);
  };
  visit(program, '', true);
  const global = program.options.filter((o) => !o.hidden).map(optionNode);
  return { name: program.name(), global, commands };
}

/** Every flag offered after a command: the program's, its own, and --help. */
export function flagsOf(tree: CompletionTree, node: CommandNode): string[] {
  const all = [...tree.global, ...node.options].flatMap((option) => option.flags);
  return [...new Set([...all, '--help'])].sort();
}

/**
 * How a value completes, as the scripts read it: `any` (a value, nothing to offer), `words a b`, `list a b`
 * (comma-separated), `file`, `directory`, or `lookup KIND` (asked of `fleetctl __complete`).
 */
export function valueSpec(values: ValueCompletion | undefined): string {
  if (values === undefined) return 'any';
  if (typeof values === 'string') return values === 'file' || values === 'directory' ? values : `lookup ${values}`;
  for (const word of values.words) {
    if (!SAFE_WORD.test(word)) throw new Error(`completion word ${JSON.stringify(word)} needs quoting in a shell script`);
  }
  return `${values.commaList ? 'list' : 'words'} ${values.words.join(' ')}`;
}

// Words written into the scripts unquoted-safe: no spaces, quotes, globs or expansions.
const SAFE_WORD = /^[\w.:@+/-]+$/;

export interface ValueRow {
  /** A command path, or '*' for every command (the program's flags). */
  path: string;
  /** Flags (`--from-file`), or argument positions (`0`, or `*` for a variadic one and those after it). */
  keys: string[];
  spec: string;
}

/** Flags that take a value, most specific first: a script's `case` takes the first row that matches. */
export function flagValueRows(tree: CompletionTree): ValueRow[] {
  const rows = (path: string, options: OptionNode[]) =>
    grouped(options.filter((o) => o.takesValue).flatMap((o) => o.flags.map((flag) => ({ path, keys: [flag], spec: valueSpec(o.values) }))));
  return [...tree.commands.flatMap((node) => rows(node.path, node.options)), ...rows('*', tree.global)];
}

/** Positional arguments that have something to offer. */
export function argumentRows(tree: CompletionTree): ValueRow[] {
  return tree.commands.flatMap((node) =>
    node.arguments
      .map((argument, index) => ({ path: node.path, keys: [argument.variadic ? '*' : String(index)], spec: valueSpec(argument.values) }))
      .filter((row) => row.spec !== 'any'),
  );
}

/** One row per command and spec: `--limit`, `--cursor` and `--max-items` of a list all take `any`. */
function grouped(rows: ValueRow[]): ValueRow[] {
  const bySpec = new Map<string, ValueRow>();
  for (const row of rows) {
    const same = bySpec.get(row.spec);
    if (same) same.keys.push(...row.keys);
    else bySpec.set(row.spec, { ...row, keys: [...row.keys] });
  }
  return [...bySpec.values()];
}

/** The shell functions of a script are named after the program: _fleetctl, _fleetctl_value, ... */
export function functionPrefix(tree: CompletionTree): string {
  return `_${tree.name.replace(/[^a-zA-Z0-9]/g, '_')}`;
}
