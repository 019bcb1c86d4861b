import { Command } from 'commander';
import { describeVerb } from '../shared/help.js';
import { addOrganizationOption } from '../shared/organization.js';
import { orgFrom, webhookClient, type OrgFlags, type WebhookDeps } from './options.js';
import { showConfig } from './view.js';
import { ENSURE_EXAMPLE_CONFIG, GIVEN_CONFIG } from './examples.js';

export interface WebhookGetOptions {
  organizationId?: string;
}

export function newWebhookGetCommand(deps: WebhookDeps, run = webhookGetRun): Command {
  const command = new Command('get').description('Show the webhook configuration of an organization, with its ETag (the key only as its hint)');
  addOrganizationOption(command);
  describeVerb(command, {
    operationIds: ['getWebhookConfig'],
    output: 'records',
    examples: [
      { comment: 'the configuration of your default organization', command: 'fleetctl webhook-config get', given: GIVEN_CONFIG },
      { comment: 'the configuration of your default organization (created first if it has none)', command: `${ENSURE_EXAMPLE_CONFIG} && fleetctl --sandbox webhook-config get` },
      { comment: 'only the ETag, for --if-match', command: `${ENSURE_EXAMPLE_CONFIG} && fleetctl --sandbox webhook-config get --columns etag | cut -f2` },
    ],
    notes: 'Exits with 5 when the organization has no webhook configuration.',
  });
  command.action(async (flags: OrgFlags) => run(deps, { organizationId: orgFrom(flags) }));
  return command;
}

export async function webhookGetRun(deps: WebhookDeps, opts: WebhookGetOptions): Promise<void> {
  const client = await webhookClient(deps, opts.organizationId);
  await showConfig(deps.output(), await client.read());
}
