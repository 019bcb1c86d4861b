// Every command group of fleetctl; each group module adds its verbs. A group's module is loaded only when the
// command line names that group: a script calling `fleetctl devices get` in a loop does not compile and build
// the other thirteen groups on every call. Help, completion and unknown names get every group.
import type { Command } from 'commander';
import type { Deps } from '../factory.js';

type GroupLoader = (deps: Deps, program: Command) => Promise<Command>;

/** In the order help lists them. */
const GROUPS: [name: string, load: GroupLoader][] = [
  ['devices', async (deps) => (await import('./devices/index.js')).newDevicesCommand(deps)],
  ['fleets', async (deps) => (await import('./fleets/index.js')).newFleetsCommand(deps)],
  ['drivers', async (deps) => (await import('./drivers/index.js')).newDriversCommand(deps)],
  ['events', async (deps) => (await import('./events/index.js')).newEventsCommand(deps)],
  ['vehicles', async (deps) => (await import('./vehicles/index.js')).newVehiclesCommand(deps)],
  ['journeys', async (deps) => (await import('./journeys/index.js')).newJourneysCommand(deps)],
  ['organizations', async (deps) => (await import('./organizations/index.js')).newOrganizationsCommand(deps)],
  ['api', async (deps) => (await import('./api/index.js')).newApiCommand(deps)],
  ['webhook-config', async (deps) => (await import('./webhook-config/index.js')).newWebhookConfigCommand(deps)],
  ['webhook', async (deps) => (await import('./webhook/index.js')).newWebhookCommand(deps)],
  ['auth', async (deps) => (await import('./auth/index.js')).newAuthCommand(deps)],
  ['config', async (deps) => (await import('./config/index.js')).newConfigCommand(deps)],
  ['sandbox', async (deps) => (await import('./sandbox/index.js')).newSandboxCommand(deps)],
  ['completion', async (deps, program) => (await import('./completion/index.js')).newCompletionCommand(deps, () => program)],
];

/** Groups that work on the whole tree: with them on the line, every group is loaded. */
const NEEDS_WHOLE_TREE = new Set(['completion', '__complete']);

/**
 * Adds the group `argv` names, or every group when it names none of them (help, an unknown name, completion).
 * Without argv, every group.
 */
export async function addCommandGroups(program: Command, deps: Deps, argv?: string[]): Promise<void> {
  const named = argv === undefined ? undefined : groupNamedIn(program, argv);
  const wanted = GROUPS.filter(([name]) => named === undefined || NEEDS_WHOLE_TREE.has(named) || !GROUPS.some(([n]) => n === named) || name === named);
  const commands = await Promise.all(wanted.map(([, load]) => load(deps, program)));
  for (const command of commands) program.addCommand(command);
  if (wanted.length === GROUPS.length) {
    const { newCompleteCommand } = await import('./completion/complete.js');
    program.addCommand(newCompleteCommand(deps), { hidden: true });
  }
}

/** The first operand of the line: the words of the program's own options, and their values, skipped. */
export function groupNamedIn(program: Command, argv: string[]): string | undefined {
  const words = argv.slice(2);
  for (let i = 0; i < words.length; i++) {
    const word = words[i];
    if (word === '--') return words[i + 1];
    if (!word.startsWith('-') || word === '-') return word;
    const [flag, inline] = word.startsWith('--') ? [word.split('=')[0], word.includes('=')] : [word.slice(0, 2), word.length > 2];
    const option = program.options.find((o) => o.long === flag || o.short === flag);
    if (option && (option.required || option.optional) && !inline) i++;
  }
  return undefined;
}
