// Every command group of fleetctl; each group module adds its verbs.
import type { Command } from 'commander';
import type { Deps } from '../factory.js';
import { newAuthCommand } from './auth/index.js';
import { newConfigCommand } from './config/index.js';
import { newDevicesCommand } from './devices/index.js';
import { newFleetsCommand } from './fleets/index.js';
import { newDriversCommand } from './drivers/index.js';
import { newEventsCommand } from './events/index.js';
import { newOrganizationsCommand } from './organizations/index.js';
import { newVehiclesCommand } from './vehicles/index.js';
import { newJourneysCommand } from './journeys/index.js';
import { newApiCommand } from './api/index.js';
import { newWebhookConfigCommand } from './webhook-config/index.js';
import { newWebhookCommand } from './webhook/index.js';
import { newSandboxCommand } from './sandbox/index.js';
import { newCompletionCommand } from './completion/index.js';
import { newCompleteCommand } from './completion/complete.js';

export function addCommandGroups(program: Command, deps: Deps): void {
  program
    .addCommand(newDevicesCommand(deps))
    .addCommand(newFleetsCommand(deps))
    .addCommand(newDriversCommand(deps))
    .addCommand(newEventsCommand(deps))
    .addCommand(newVehiclesCommand(deps))
    .addCommand(newJourneysCommand(deps))
    .addCommand(newOrganizationsCommand(deps))
    .addCommand(newApiCommand(deps))
    .addCommand(newWebhookConfigCommand(deps))
    .addCommand(newWebhookCommand(deps))
    .addCommand(newAuthCommand(deps))
    .addCommand(newConfigCommand(deps))
    .addCommand(newSandboxCommand(deps))
    .addCommand(newCompletionCommand(deps, () => program))
    .addCommand(newCompleteCommand(deps), { hidden: true });
}
