// `fleetctl webhook`: tools for people who build webhook receivers (the subscription itself is `webhook-config`).
import { Command } from 'commander';
import type { Deps } from '../../factory.js';
import { newWebhookListenCommand } from './listen.js';
import { newWebhookTriggerCommand } from './trigger.js';

export function newWebhookCommand(deps: Deps): Command {
  return new Command('webhook')
    .description('Receive and send webhook deliveries locally, to build and test a receiver')
    .addCommand(newWebhookListenCommand(deps))
    .addCommand(newWebhookTriggerCommand(deps));
}
