import { Command } from 'commander';
import type { Deps } from '../../factory.js';
import { addVerbs } from '../shared/verbs.js';

/**
 * `verb`: the verb the command line names, when only that one is needed (shared/verbs.ts). Each verb's module is
 * loaded when it is built: `devices get` does not load the bulk pipeline that reboot and assign run, nor the
 * selection grammar, the follower or the media download (src/build/chunks.mjs keeps them in a few chunks; get and
 * list, the lookups called most, in the group's own).
 */
export function newDevicesCommand(deps: Deps, verb?: string): Promise<Command> {
  const group = new Command('devices').description('Devices: list, inspect, assign, reboot and wake up');
  return addVerbs(group, [
    ['list', async () => (await import('./list.js')).newDevicesListCommand(deps)],
    ['get', async () => (await import('./get.js')).newDevicesGetCommand(deps)],
    ['assign', async () => (await import('./assign.js')).newDevicesAssignCommand(deps)],
    ['unassign', async () => (await import('./unassign.js')).newDevicesUnassignCommand(deps)],
    ['reboot', async () => (await import('./reboot.js')).newDevicesRebootCommand(deps)],
    ['wake-up', async () => (await import('./wake-up.js')).newDevicesWakeUpCommand(deps)],
    ['events', async () => (await import('./events.js')).newDevicesEventsCommand(deps)],
    ['last-reported', async () => (await import('./last-reported.js')).newDevicesLastReportedCommand(deps)],
    ['last-position', async () => (await import('./last-position.js')).newDevicesLastPositionCommand(deps)],
    ['media', async () => (await import('./media.js')).newDevicesMediaCommand(deps)],
  ], verb);
}
