import { Command } from 'commander';
import type { Deps } from '../../factory.js';
import { newWebhookGetCommand } from './get.js';
import { newWebhookCreateCommand } from './create.js';
import { newWebhookEnableCommand, newWebhookDisableCommand } from './set-enabled.js';
import { newWebhookDeleteCommand } from './delete.js';
import { newWebhookRegenerateKeyCommand } from './regenerate-key.js';
import { newWebhookTopicsCommand } from './topics/index.js';
import { newWebhookDiffCommand } from './diff.js';
import { newWebhookApplyCommand } from './apply.js';

export function newWebhookConfigCommand(deps: Deps): Command {
  return new Command('webhook-config')
    .description("An organization's webhook subscription: topics, delivery switch, auth key (ETags handled for you)")
    .addCommand(newWebhookGetCommand(deps))
    .addCommand(newWebhookCreateCommand(deps))
    .addCommand(newWebhookEnableCommand(deps))
    .addCommand(newWebhookDisableCommand(deps))
    .addCommand(newWebhookTopicsCommand(deps))
    .addCommand(newWebhookRegenerateKeyCommand(deps))
    .addCommand(newWebhookDiffCommand(deps))
    .addCommand(newWebhookApplyCommand(deps))
    .addCommand(newWebhookDeleteCommand(deps));
}
