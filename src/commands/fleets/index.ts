import { Command } from 'commander';
import type { Deps } from '../../factory.js';
import { newFleetsListCommand } from './list.js';
import { newFleetsGetCommand } from './get.js';

export function newFleetsCommand(deps: Deps): Command {
  return new Command('fleets').description('Fleets of your tenant').addCommand(newFleetsListCommand(deps)).addCommand(newFleetsGetCommand(deps));
}
