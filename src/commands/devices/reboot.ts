import type { Command } from 'commander';
import { newDeviceCommandVerb, REBOOT, deviceCommandRun, type DeviceCommandDeps } from './command-verb.js';

export function newDevicesRebootCommand(deps: DeviceCommandDeps, run = deviceCommandRun): Command {
  return newDeviceCommandVerb(deps, REBOOT, run);
}
