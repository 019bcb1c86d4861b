// The fish script: the same tree and the same reading of the words typed as bash and zsh, in fish's syntax.
// One function prints every candidate (fish filters them by the token and shows what follows a tab).
import { argumentRows, COMPLETE_COMMAND, flagsOf, flagValueRows, functionPrefix, type CompletionTree, type ValueRow } from './tree.js';

const quote = (word: string) => `'${word}'`;

/** `case` patterns for "$path|$key", one per key ('*' matches anything: fish matches them as wildcards). */
const rowPattern = (row: ValueRow) => row.keys.map((key) => quote(`${row.path}|${key}`)).join(' ');

export function fishScript(tree: CompletionTree): string {
  const fn = `_${functionPrefix(tree)}`;
  const table = (pick: (node: CompletionTree['commands'][number]) => string[]) =>
    tree.commands.map((node) => `    case ${quote(node.path)}\n      printf '%s\\n' ${pick(node).map(quote).join(' ')}`).join('\n');
  const rows = (list: ValueRow[]) => list.map((row) => `    case ${rowPattern(row)}\n      echo ${quote(row.spec)}`).join('\n');
  return `# fish completion for ${tree.name} (generated from the command tree)
function ${fn}_subcommands
  switch "$argv[1]"
${table((node) => node.subcommands)}
  end
end
function ${fn}_options
  switch "$argv[1]"
${table((node) => flagsOf(tree, node))}
  end
end
# How the value of flag $argv[2] of command $argv[1] completes; nothing when the flag takes no value.
function ${fn}_value
  switch "$argv[1]|$argv[2]"
${rows(flagValueRows(tree))}
  end
end
# How positional argument $argv[2] (from 0) of command $argv[1] completes.
function ${fn}_argument
  switch "$argv[1]|$argv[2]"
${rows(argumentRows(tree))}
  end
end
# Prints the values of a spec for the token $argv[2], each after $argv[1] (a --flag= typed before the value).
function ${fn}_offer
  set -l prefix $argv[1]
  set -l cur $argv[2]
  set -l words $argv[4..-1]
  switch $argv[3]
    case words
      printf '%s\\n' $prefix$words
    case list
      set -l head (string replace -r '[^,]*$' '' -- $cur)
      printf '%s\\n' $prefix$head$words
    case file
      for candidate in (__fish_complete_path $cur)
        echo $prefix$candidate
      end
    case directory
      for candidate in (__fish_complete_directories $cur)
        echo $prefix$candidate
      end
    case lookup
      set -l line (commandline -opc)
      for value in ($line[1] ${COMPLETE_COMMAND} $words[1] -- $line[2..-1] $cur 2>/dev/null </dev/null)
        echo $prefix$value
      end
  end
end
function ${fn}_complete
  set -l cur (commandline -ct)
  set -l cmdpath ''
  set -l pending ''
  set -l argindex 0
  set -l dashdash ''
  for word in (commandline -opc)[2..-1]
    if test -n "$pending"
      set pending ''
    else if test -n "$dashdash"
      set argindex (math $argindex + 1)
    else if test "$word" = '--'
      set dashdash 1
    else if string match -q -- '-?*' $word
      if not string match -q -- '*=*' $word
        set -l takes (${fn}_value "$cmdpath" $word)
        test -n "$takes"; and set pending $word
      end
    else if test $argindex -eq 0; and contains -- $word (${fn}_subcommands "$cmdpath")
      set cmdpath (string trim -- "$cmdpath $word")
    else
      set argindex (math $argindex + 1)
    end
  end
  set -l prefix ''
  set -l spec
  if test -n "$pending"
    set spec (string split ' ' -- (${fn}_value "$cmdpath" $pending))
  else if string match -q -- '-*=*' $cur
    set -l parts (string split -m 1 '=' -- $cur)
    set prefix "$parts[1]="
    set cur $parts[2]
    set spec (string split ' ' -- (${fn}_value "$cmdpath" $parts[1]))
  else if string match -q -- '-*' $cur
    ${fn}_options "$cmdpath"
    return
  else
    if test $argindex -eq 0
      ${fn}_subcommands "$cmdpath"
    end
    set spec (string split ' ' -- (${fn}_argument "$cmdpath" $argindex))
  end
  if test (count $spec) -gt 0
    ${fn}_offer "$prefix" "$cur" $spec
  end
end
complete -c ${tree.name} -f -a '(${fn}_complete)'
`;
}
