import type { Command } from 'commander';
import { newDeviceCommandVerb, runDeviceCommandVerb, type DeviceCommandVerbDeps } from './command-verb.js';
import { WAKE_UP } from './device-command.js';

export function newDevicesWakeUpCommand(deps: DeviceCommandVerbDeps, run = runDeviceCommandVerb): Command {
  return newDeviceCommandVerb(deps, WAKE_UP, run);
}
