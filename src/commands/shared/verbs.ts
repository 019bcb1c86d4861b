// A group builds only the verb the command line names: each verb's options, help and completions cost about
// half a millisecond to build, a group of ten on every call of a script's loop. A group may also load each
// verb's module only when that verb is built (devices: `devices get` loads no bulk pipeline). Help, an unknown
// or misspelt verb (commander suggests the nearest) and completion get every verb.
import type { Command } from 'commander';

/** A group's verbs, in the order help lists them: each name with what builds it (loading its module first, or not). */
export type Verbs = readonly (readonly [name: string, build: () => Command | Promise<Command>])[];

/** Adds the verb `named` when it is one of `verbs`, else every verb, in the order of `verbs`. */
export async function addVerbs(group: Command, verbs: Verbs, named: string | undefined): Promise<Command> {
  const only = verbs.some(([name]) => name === named) ? named : undefined;
  const built = await Promise.all(verbs.filter(([name]) => only === undefined || name === only).map(([, build]) => build()));
  for (const verb of built) group.addCommand(verb);
  return group;
}
