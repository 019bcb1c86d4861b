import { Command } from 'commander';
import type { Deps } from '../../../factory.js';
import { TOPIC_TYPES, type TopicType } from '../../../webhooks/callback-url.js';
import { describeVerb } from '../../shared/help.js';
import { completeValues } from '../../../completion/values.js';
import { addOrganizationOption } from '../../shared/organization.js';
import { addIfMatchOption, orgFrom, parseIfMatch, webhookClient, type OrgFlags } from '../options.js';
import { requireTopicType } from '../topic-input.js';
import { showConfig } from '../view.js';
import { ENSURE_EXAMPLE_CONFIG, EXAMPLE_URL } from '../examples.js';

export interface WebhookTopicRemoveOptions {
  organizationId?: string;
  type: TopicType;
  ifMatch?: string;
}

type WebhookTopicRemoveDeps = Pick<Deps, 'api' | 'settings' | 'output' | 'io' | 'prompter'>;

export function newWebhookTopicRemoveCommand(deps: WebhookTopicRemoveDeps, run = webhookTopicRemoveRun): Command {
  const command = new Command('remove').description('Remove the topics of one type').argument('<type>', TOPIC_TYPES.join(' | '));
  completeValues(command, { type: { words: TOPIC_TYPES } });
  addOrganizationOption(command);
  addIfMatchOption(command);
  describeVerb(command, {
    operationIds: ['deleteWebhookTopic', 'getWebhookConfig'],
    examples: [
      {
        comment: 'stop delivering alarms (events stay)',
        command:
          `${ENSURE_EXAMPLE_CONFIG}; fleetctl --sandbox webhook-config topics set events --url ${EXAMPLE_URL} >/dev/null && ` +
          `fleetctl --sandbox webhook-config topics set alarms --url ${EXAMPLE_URL} >/dev/null && fleetctl --sandbox webhook-config topics remove alarms`,
      },
    ],
    notes:
      'The last remaining topic cannot be removed (exit 6): set another topic first, or delete the whole\n' +
      'configuration. Exits with 5 when there is no configuration or no topic of that type.',
  });
  command.action(async (type: string, flags: OrgFlags) =>
    run(deps, { organizationId: orgFrom(flags), type: requireTopicType(type), ifMatch: parseIfMatch(flags.ifMatch) }),
  );
  return command;
}

export async function webhookTopicRemoveRun(deps: WebhookTopicRemoveDeps, opts: WebhookTopicRemoveOptions): Promise<void> {
  const client = await webhookClient(deps, opts.organizationId);
  const { pre } = await client.precondition(opts.ifMatch);
  await client.removeTopic(opts.type, pre);
  await showConfig(deps.output(), await client.read());
  deps.io.info(`Removed the ${opts.type} topic.`);
}
