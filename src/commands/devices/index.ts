import { Command } from 'commander';
import type { Deps } from '../../factory.js';
import { addVerbs } from '../shared/verbs.js';
import { newDevicesListCommand } from './list.js';
import { newDevicesGetCommand } from './get.js';
import { newDevicesAssignCommand } from './assign.js';
import { newDevicesUnassignCommand } from './unassign.js';
import { newDevicesRebootCommand } from './reboot.js';
import { newDevicesWakeUpCommand } from './wake-up.js';
import { newDevicesEventsCommand } from './events.js';
import { newDevicesLastReportedCommand } from './last-reported.js';
import { newDevicesLastPositionCommand } from './last-position.js';
import { newDevicesMediaCommand } from './media.js';

/** `verb`: the verb the command line names, when only that one is needed (shared/verbs.ts). */
export function newDevicesCommand(deps: Deps, verb?: string): Command {
  const group = new Command('devices').description('Devices: list, inspect, assign, reboot and wake up');
  return addVerbs(group, [
    ['list', () => newDevicesListCommand(deps)],
    ['get', () => newDevicesGetCommand(deps)],
    ['assign', () => newDevicesAssignCommand(deps)],
    ['unassign', () => newDevicesUnassignCommand(deps)],
    ['reboot', () => newDevicesRebootCommand(deps)],
    ['wake-up', () => newDevicesWakeUpCommand(deps)],
    ['events', () => newDevicesEventsCommand(deps)],
    ['last-reported', () => newDevicesLastReportedCommand(deps)],
    ['last-position', () => newDevicesLastPositionCommand(deps)],
    ['media', () => newDevicesMediaCommand(deps)],
  ], verb);
}
