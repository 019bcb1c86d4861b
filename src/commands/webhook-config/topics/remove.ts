import { Command } from 'commander';
import { TOPIC_TYPES, type TopicType } from '../../../webhooks/index.js';
import { safeText } from '../../../shared/terminal-text.js';
import { describeVerb } from '../../shared/help.js';
import { completeValues } from '../../../completion/values.js';
import { PROPAGATION_SECONDS, type Versioned } from '../config-client.js';
import { addTargetOptions, confirmedChange, orgFrom, parseIfMatch, type OrgFlags, type Target, type WebhookDeps } from '../options.js';
import { requireTopicType } from '../topic-input.js';
import { showConfig } from '../view.js';
import { ENSURE_EXAMPLE_CONFIG, EXAMPLE_URL, GIVEN_CONFIG } from '../examples.js';

export interface WebhookTopicRemoveOptions extends Target {
  type: TopicType;
  yes: boolean;
}

export function newWebhookTopicRemoveCommand(deps: WebhookDeps, run = webhookTopicRemoveRun): Command {
  const command = new Command('remove')
    .description('Remove the topics of one type (asks first unless --yes)')
    .argument('<type>', TOPIC_TYPES.join(' | '))
    .option('-y, --yes', 'do not ask for confirmation (required when not interactive)');
  completeValues(command, { type: { words: TOPIC_TYPES } });
  addTargetOptions(command);
  describeVerb(command, {
    operationIds: ['deleteWebhookTopic', 'getWebhookConfig'],
    output: 'records',
    prompts: true,
    examples: [
      {
        comment: 'stop delivering alarms (asks first; events stay)',
        command: 'fleetctl webhook-config topics remove alarms',
        given: `${GIVEN_CONFIG}; fleetctl webhook-config topics set alarms --url ${EXAMPLE_URL} >/dev/null`,
        asks: true,
      },
      {
        comment: 'the same in a script, without a prompt',
        command:
          `${ENSURE_EXAMPLE_CONFIG}; fleetctl --sandbox webhook-config topics set events --url ${EXAMPLE_URL} >/dev/null && ` +
          `fleetctl --sandbox webhook-config topics set alarms --url ${EXAMPLE_URL} >/dev/null && fleetctl --sandbox webhook-config topics remove alarms --yes`,
      },
    ],
    notes:
      `Deliveries of that type stop within ${PROPAGATION_SECONDS} s. Without a terminal, --yes is required (exit 2 otherwise).\n` +
      'The last remaining topic cannot be removed (exit 6): set another topic first, or delete the whole\n' +
      'configuration. Exits with 5 when there is no configuration or no topic of that type.',
  });
  command.action(async (type: string, flags: OrgFlags & { yes?: boolean }) =>
    run(deps, { organizationId: orgFrom(flags), type: requireTopicType(type), ifMatch: parseIfMatch(flags.ifMatch), yes: Boolean(flags.yes) }),
  );
  return command;
}

export async function webhookTopicRemoveRun(deps: WebhookDeps, opts: WebhookTopicRemoveOptions): Promise<void> {
  const { client, pre } = await confirmedChange(deps, opts, `${opts.type} topic not removed`, (org, current) => question(org, opts.type, current), 'webhook-config topics remove');
  await showConfig(deps.output(), await client.removeTopic(opts.type, pre));
  deps.io.info(`Removed the ${opts.type} topic; its deliveries stop within ${PROPAGATION_SECONDS} s while the change propagates.`);
}

function removable(current: Versioned, type: TopicType): boolean {
  const { topics } = current.config;
  return topics.some((t) => t.type === type) && topics.some((t) => t.type !== type);
}

function question(org: string, type: TopicType, current: Versioned | undefined): string | undefined {
  // no such topic, or the last one: the API refuses it and says why, so there is nothing to confirm
  if (current && !removable(current, type)) return undefined;
  const urls = current?.config.topics.filter((t) => t.type === type).map((t) => safeText(t.delivery.url)) ?? [];
  const where = urls.length > 0 ? ` to ${urls.length > 3 ? `${urls.slice(0, 3).join(', ')} and ${urls.length - 3} more` : urls.join(', ')}` : '';
  return `Deliveries of ${type}${where} stop within ${PROPAGATION_SECONDS} s. Remove the ${type} topic of organization ${org}?`;
}
