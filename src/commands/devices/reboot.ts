import type { Command } from 'commander';
import { newDeviceCommandVerb, runDeviceCommandVerb, type DeviceCommandVerbDeps } from './command-verb.js';
import { REBOOT } from './device-command.js';

export function newDevicesRebootCommand(deps: DeviceCommandVerbDeps, run = runDeviceCommandVerb): Command {
  return newDeviceCommandVerb(deps, REBOOT, run);
}
