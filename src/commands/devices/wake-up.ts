import type { Command } from 'commander';
import { newDeviceCommandVerb, WAKE_UP, runDeviceCommandVerb, type DeviceCommandVerbDeps } from './command-verb.js';

export function newDevicesWakeUpCommand(deps: DeviceCommandVerbDeps, run = runDeviceCommandVerb): Command {
  return newDeviceCommandVerb(deps, WAKE_UP, run);
}
