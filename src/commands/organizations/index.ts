import { Command } from 'commander';
import type { Deps } from '../../factory.js';
import { newOrganizationsListCommand } from './list.js';
import { newOrganizationsGetCommand } from './get.js';
import { newOrganizationsDescendantsCommand } from './descendants.js';

export function newOrganizationsCommand(deps: Deps): Command {
  return new Command('organizations')
    .description('Organizations of your tenant: list, inspect, and walk the hierarchy')
    .addCommand(newOrganizationsListCommand(deps))
    .addCommand(newOrganizationsGetCommand(deps))
    .addCommand(newOrganizationsDescendantsCommand(deps));
}
