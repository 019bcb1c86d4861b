// Every command group of fleetctl; each group module adds its verbs. A group's module is loaded only when the
// command line names that group: a script calling `fleetctl devices get` in a loop does not compile and build
// the other thirteen groups on every call. Help, completion and unknown names get every group.
import type { Command } from 'commander';
import type { Deps } from '../factory.js';

/** `verb`: the verb the line names right after the group, for a group that builds only that one (shared/verbs.ts). */
type GroupLoader = (deps: Deps, program: Command, verb?: string) => Promise<Command>;

/** In the order help lists them. */
const GROUPS: [name: string, load: GroupLoader][] = [
  ['devices', async (deps, _program, verb) => (await import('./devices/index.js')).newDevicesCommand(deps, verb)],
  ['fleets', async (deps) => (await import('./fleets/index.js')).newFleetsCommand(deps)],
  ['drivers', async (deps) => (await import('./drivers/index.js')).newDriversCommand(deps)],
  ['events', async (deps) => (await import('./events/index.js')).newEventsCommand(deps)],
  ['vehicles', async (deps) => (await import('./vehicles/index.js')).newVehiclesCommand(deps)],
  ['journeys', async (deps) => (await import('./journeys/index.js')).newJourneysCommand(deps)],
  ['status', async (deps) => (await import('./status/index.js')).newStatusCommand(deps)],
  ['selection', async (deps) => (await import('./selection/index.js')).newSelectionCommand(deps)],
  ['organizations', async (deps) => (await import('./organizations/index.js')).newOrganizationsCommand(deps)],
  ['api', async (deps) => (await import('./api/index.js')).newApiCommand(deps)],
  ['webhook-config', async (deps, _program, verb) => (await import('./webhook-config/index.js')).newWebhookConfigCommand(deps, verb)],
  ['webhook', async (deps) => (await import('./webhook/index.js')).newWebhookCommand(deps)],
  ['history', async (deps) => (await import('./history/index.js')).newHistoryCommand(deps)],
  ['auth', async (deps) => (await import('./auth/index.js')).newAuthCommand(deps)],
  ['config', async (deps) => (await import('./config/index.js')).newConfigCommand(deps)],
  ['alias', async (deps, program) => (await import('./alias/index.js')).newAliasCommand(deps, { names: BUILT_IN_COMMANDS, commandNamed: (words) => operandsIn(program, ['', '', ...words]).group })],
  ['extension', async (deps) => (await import('./extension/index.js')).newExtensionCommand(deps, BUILT_IN_COMMANDS)],
  ['sandbox', async (deps) => (await import('./sandbox/index.js')).newSandboxCommand(deps)],
  ['completion', async (deps, program) => (await import('./completion/index.js')).newCompletionCommand(deps, () => program)],
  ['help', async (deps, program) => (await import('./help/index.js')).newHelpCommand(deps, () => program)],
];

/** Groups that work on the whole tree: with them on the line, every group is loaded. */
const NEEDS_WHOLE_TREE = new Set(['completion', '__complete', 'help']);

/** The names a first word can have for fleetctl itself: what no alias may take. */
export const BUILT_IN_COMMANDS: ReadonlySet<string> = new Set([...GROUPS.map(([name]) => name), ...NEEDS_WHOLE_TREE]);

/**
 * Adds the group `argv` names, or every group when it names none of them (help, an unknown name, completion).
 * Without argv, every group.
 */
export async function addCommandGroups(program: Command, deps: Deps, argv?: string[]): Promise<void> {
  const { group: named, verb } = argv === undefined ? {} : operandsIn(program, argv);
  const wanted = GROUPS.filter(([name]) => named === undefined || NEEDS_WHOLE_TREE.has(named) || !GROUPS.some(([n]) => n === named) || name === named);
  const whole = wanted.length === GROUPS.length;
  const commands = await Promise.all(wanted.map(([, load]) => load(deps, program, whole ? undefined : verb)));
  for (const command of commands) program.addCommand(command);
  if (whole) {
    const { newCompleteCommand } = await import('./completion/complete.js');
    program.addCommand(newCompleteCommand(deps, BUILT_IN_COMMANDS), { hidden: true });
  }
}

/**
 * The group the line names (its first operand, the program's options and their values skipped), its index in
 * argv (`at`), and the verb right after it. A verb is named only when it follows the group at once: after an option, which could take a
 * value, it is not known.
 */
export function operandsIn(program: Command, argv: string[]): { group?: string; verb?: string; at?: number } {
  const words = argv.slice(2);
  for (let i = 0; i < words.length; i++) {
    const word = words[i];
    if (word === '--') return words[i + 1] === undefined ? {} : { group: words[i + 1], at: i + 3 };
    if (!word.startsWith('-') || word === '-') {
      const next = words[i + 1];
      return { group: word, verb: next === undefined || next.startsWith('-') ? undefined : next, at: i + 2 };
    }
    const [flag, inline] = word.startsWith('--') ? [word.split('=')[0], word.includes('=')] : [word.slice(0, 2), word.length > 2];
    const option = program.options.find((o) => o.long === flag || o.short === flag);
    if (option && (option.required || option.optional) && !inline) i++;
  }
  return {};
}
