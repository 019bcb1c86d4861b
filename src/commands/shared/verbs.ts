// A group builds only the verb the command line names: each verb's options, help and completions cost about
// half a millisecond to build, a group of ten on every call of a script's loop. Help, an unknown or misspelt
// verb (commander suggests the nearest) and completion get every verb.
import type { Command } from 'commander';

/** A group's verbs, in the order help lists them: each name with what builds it. */
export type Verbs = readonly (readonly [name: string, build: () => Command])[];

/** Adds the verb `named` when it is one of `verbs`, else every verb. */
export function addVerbs(group: Command, verbs: Verbs, named: string | undefined): Command {
  const only = verbs.some(([name]) => name === named) ? named : undefined;
  for (const [name, build] of verbs) if (only === undefined || name === only) group.addCommand(build());
  return group;
}
