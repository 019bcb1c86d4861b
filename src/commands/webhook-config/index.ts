import { Command } from 'commander';
import type { Deps } from '../../factory.js';
import { addVerbs } from '../shared/verbs.js';
import { newWebhookGetCommand } from './get.js';
import { newWebhookCreateCommand } from './create.js';
import { newWebhookEnableCommand, newWebhookDisableCommand } from './set-enabled.js';
import { newWebhookDeleteCommand } from './delete.js';
import { newWebhookRegenerateKeyCommand } from './regenerate-key.js';
import { newWebhookTopicsCommand } from './topics/index.js';
import { newWebhookDiffCommand } from './diff.js';
import { newWebhookApplyCommand } from './apply.js';

/** `verb`: the verb the command line names, when only that one is needed (shared/verbs.ts). */
export function newWebhookConfigCommand(deps: Deps, verb?: string): Promise<Command> {
  const group = new Command('webhook-config').description("An organization's webhook subscription: topics, delivery switch, auth key (ETags handled for you)");
  return addVerbs(group, [
    ['get', () => newWebhookGetCommand(deps)],
    ['create', () => newWebhookCreateCommand(deps)],
    ['enable', () => newWebhookEnableCommand(deps)],
    ['disable', () => newWebhookDisableCommand(deps)],
    ['topics', () => newWebhookTopicsCommand(deps)],
    ['regenerate-key', () => newWebhookRegenerateKeyCommand(deps)],
    ['diff', () => newWebhookDiffCommand(deps)],
    ['apply', () => newWebhookApplyCommand(deps)],
    ['delete', () => newWebhookDeleteCommand(deps)],
  ], verb);
}
