import type { Command } from 'commander';
import { newDeviceCommandVerb, REBOOT, runDeviceCommandVerb, type DeviceCommandVerbDeps } from './command-verb.js';

export function newDevicesRebootCommand(deps: DeviceCommandVerbDeps, run = runDeviceCommandVerb): Command {
  return newDeviceCommandVerb(deps, REBOOT, run);
}
