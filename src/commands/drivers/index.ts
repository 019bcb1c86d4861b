import { Command } from 'commander';
import type { Deps } from '../../factory.js';
import { newDriversListCommand } from './list.js';
import { newDriversGetCommand } from './get.js';
import { newDriversCreateCommand } from './create.js';
import { newDriversUpdateCommand } from './update.js';

export function newDriversCommand(deps: Deps): Command {
  return new Command('drivers')
    .description('Drivers: list, inspect, create and update')
    .addCommand(newDriversListCommand(deps))
    .addCommand(newDriversGetCommand(deps))
    .addCommand(newDriversCreateCommand(deps))
    .addCommand(newDriversUpdateCommand(deps));
}
