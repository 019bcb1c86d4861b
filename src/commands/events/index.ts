import { Command } from 'commander';
import type { Deps } from '../../factory.js';
import { newEventsSearchCommand } from './search.js';
import { newEventsGetCommand } from './get.js';
import { newEventsMediaCommand } from './media.js';

export function newEventsCommand(deps: Deps): Command {
  return new Command('events')
    .description('Telematics events: search, inspect, and list their media')
    .addCommand(newEventsSearchCommand(deps))
    .addCommand(newEventsGetCommand(deps))
    .addCommand(newEventsMediaCommand(deps));
}
