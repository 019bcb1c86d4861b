import type { Command } from 'commander';
import { newDeviceCommandVerb, WAKE_UP, deviceCommandRun, type DeviceCommandDeps } from './command-verb.js';

export function newDevicesWakeUpCommand(deps: DeviceCommandDeps, run = deviceCommandRun): Command {
  return newDeviceCommandVerb(deps, WAKE_UP, run);
}
