import { Command } from 'commander';
import type { Deps } from '../../factory.js';
import { newVehiclesListCommand } from './list.js';
import { newVehiclesGetCommand } from './get.js';

export function newVehiclesCommand(deps: Deps): Command {
  return new Command('vehicles').description('Vehicles of your tenant').addCommand(newVehiclesListCommand(deps)).addCommand(newVehiclesGetCommand(deps));
}
