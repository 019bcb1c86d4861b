import { Command } from 'commander';
import type { Deps } from '../../factory.js';
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

export function newDevicesCommand(deps: Deps): Command {
  return new Command('devices')
    .description('Devices: list, inspect, assign, reboot and wake up')
    .addCommand(newDevicesListCommand(deps))
    .addCommand(newDevicesGetCommand(deps))
    .addCommand(newDevicesAssignCommand(deps))
    .addCommand(newDevicesUnassignCommand(deps))
    .addCommand(newDevicesRebootCommand(deps))
    .addCommand(newDevicesWakeUpCommand(deps))
    .addCommand(newDevicesEventsCommand(deps))
    .addCommand(newDevicesLastReportedCommand(deps))
    .addCommand(newDevicesLastPositionCommand(deps))
    .addCommand(newDevicesMediaCommand(deps));
}
