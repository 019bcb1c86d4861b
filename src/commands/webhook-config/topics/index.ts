import { Command } from 'commander';
import type { Deps } from '../../../factory.js';
import { newWebhookTopicSetCommand } from './set.js';
import { newWebhookTopicRemoveCommand } from './remove.js';

export function newWebhookTopicsCommand(deps: Deps): Command {
  return new Command('topics')
    .description('Topics of the webhook configuration: set (add or replace) and remove')
    .addCommand(newWebhookTopicSetCommand(deps))
    .addCommand(newWebhookTopicRemoveCommand(deps));
}
