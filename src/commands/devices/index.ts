import { Command } from 'commander';
import type { Deps } from '../../factory.js';
import { newDevicesListCommand } from './list.js';
import { newDevicesGetCommand } from './get.js';

export function newDevicesCommand(deps: Deps): Command {
  return new Command('devices')
    .description('Devices: list, inspect, assign, reboot and wake up')
    .addCommand(newDevicesListCommand(deps))
    .addCommand(newDevicesGetCommand(deps));
}
