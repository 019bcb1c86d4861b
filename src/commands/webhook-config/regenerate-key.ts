import { Command } from 'commander';
import type { Deps } from '../../factory.js';
import { describeVerb } from '../shared/help.js';
import { addOrganizationOption } from '../shared/organization.js';
import { PROPAGATION_SECONDS } from './config-client.js';
import { addIfMatchOption, orgFrom, parseIfMatch, webhookClient, type OrgFlags } from './options.js';
import { ENSURE_EXAMPLE_CONFIG } from './examples.js';

export interface WebhookRegenerateKeyOptions {
  organizationId?: string;
  ifMatch?: string;
}

type WebhookRegenerateKeyDeps = Pick<Deps, 'api' | 'settings' | 'output' | 'io' | 'prompter'>;

export function newWebhookRegenerateKeyCommand(deps: WebhookRegenerateKeyDeps, run = webhookRegenerateKeyRun): Command {
  const command = new Command('regenerate-key').description('Rotate the shared key sent in X-Webhook-Key, and print the new key once');
  addOrganizationOption(command);
  addIfMatchOption(command);
  describeVerb(command, {
    operationIds: ['regenerateWebhookAuthKey', 'getWebhookConfig'],
    examples: [
      { comment: 'rotate the key and keep it in a variable (stdout carries only the key)', command: `${ENSURE_EXAMPLE_CONFIG}; WEBHOOK_KEY=$(fleetctl --sandbox webhook-config regenerate-key)` },
      { comment: 'the new key as JSON: {"auth_key": "..."}', command: `${ENSURE_EXAMPLE_CONFIG}; fleetctl --sandbox webhook-config regenerate-key --json` },
    ],
    notes:
      'The key is printed on stdout once: the service never shows it again (get shows only auth_key_hint).\n' +
      'The previous key may stay valid for up to 60 s, so receivers should accept both during the switch.',
  });
  command.action(async (flags: OrgFlags) => run(deps, { organizationId: orgFrom(flags), ifMatch: parseIfMatch(flags.ifMatch) }));
  return command;
}

export async function webhookRegenerateKeyRun(deps: WebhookRegenerateKeyDeps, opts: WebhookRegenerateKeyOptions): Promise<void> {
  const client = await webhookClient(deps, opts.organizationId);
  const { pre } = await client.precondition(opts.ifMatch);
  const { authKey } = await client.regenerateKey(pre);
  // the one place a key is ever written: stdout, so it can go straight to a file or secret store
  const output = deps.output();
  if (output.isMachineReadable) await output.object({ auth_key: authKey });
  else output.text(authKey);
  deps.io.info('Save this key now: it will not be shown again.');
  deps.io.info(`The previous key may stay valid for up to ${PROPAGATION_SECONDS} s while the change propagates.`);
  const after = await client.read();
  deps.io.info(`Key hint ${after.config.auth_key_hint}; new ETag ${after.etag}.`);
}
