import { Command } from 'commander';
import type { Deps } from '../../factory.js';
import { newJourneysListCommand } from './list.js';

export function newJourneysCommand(deps: Deps): Command {
  return new Command('journeys').description('Completed journeys of devices, vehicles and fleets').addCommand(newJourneysListCommand(deps));
}
