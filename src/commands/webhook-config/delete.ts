import { Command } from 'commander';
import type { Deps } from '../../factory.js';
import { describeVerb } from '../shared/help.js';
import { PROPAGATION_SECONDS, type Versioned } from './config-client.js';
import { addTargetOptions, confirmedChange, targetFrom, type OrgFlags, type Target } from './options.js';
import { ENSURE_EXAMPLE_CONFIG, GIVEN_CONFIG } from './examples.js';

export interface WebhookDeleteOptions extends Target {
  yes: boolean;
}

type WebhookDeleteDeps = Pick<Deps, 'api' | 'settings' | 'io' | 'prompter' | 'ledger'>;

export function newWebhookDeleteCommand(deps: WebhookDeleteDeps, run = webhookDeleteRun): Command {
  const command = new Command('delete').description('Delete the webhook configuration of an organization (asks first unless --yes)').option('-y, --yes', 'do not ask for confirmation');
  addTargetOptions(command);
  describeVerb(command, {
    operationIds: ['deleteWebhookConfig', 'getWebhookConfig'],
    output: 'nothing',
    prompts: true,
    examples: [
      { comment: 'delete the configuration of your default organization (asks first)', command: 'fleetctl webhook-config delete', given: GIVEN_CONFIG, asks: true },
      { comment: 'delete it without a prompt, as a script would', command: `${ENSURE_EXAMPLE_CONFIG}; fleetctl --sandbox webhook-config delete --yes` },
    ],
    notes:
      'Deliveries already under way may continue for up to 60 s. Without a terminal, --yes is required\n' +
      '(exit 2 otherwise). Exits with 5 when there is no configuration, 6 when --if-match is stale.',
  });
  command.action(async (flags: OrgFlags & { yes?: boolean }) => run(deps, { ...targetFrom(flags), yes: Boolean(flags.yes) }));
  return command;
}

export async function webhookDeleteRun(deps: WebhookDeleteDeps, opts: WebhookDeleteOptions): Promise<void> {
  const { client, pre } = await confirmedChange(deps, opts, 'webhook configuration not deleted', question, 'webhook-config delete');
  await client.remove(pre);
  deps.io.info(
    `Deleted the webhook configuration of organization ${client.organizationId}; deliveries may continue for up to ${PROPAGATION_SECONDS} s while the change propagates.`,
  );
}

function question(org: string, current: Versioned | undefined): string {
  if (!current) return `Delete the webhook configuration of organization ${org}?`;
  const { is_enabled, topics } = current.config;
  const topicCount = `${topics.length} topic${topics.length === 1 ? '' : 's'}`;
  return `Delete the webhook configuration of organization ${org} (${is_enabled ? 'enabled' : 'disabled'}, ${topicCount})?`;
}
