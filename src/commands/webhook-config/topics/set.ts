import { Command } from 'commander';
import { UsageError } from '../../../errors.js';
import { MAX_TOPICS, TOPIC_TYPES, type TopicType } from '../../../webhooks/index.js';
import { describeVerb } from '../../shared/help.js';
import { completeValues } from '../../../completion/values.js';
import { addTargetOptions, orgFrom, parseIfMatch, webhookClient, type OrgFlags, type Target, type WebhookDeps } from '../options.js';
import { ALLOW_PRIVATE_URL_HELP, CALLBACK_URL_HELP, requireCallbackUrl, requireTopicType } from '../topic-input.js';
import { showConfig, topicLabel } from '../view.js';
import { ENSURE_EXAMPLE_CONFIG, GIVEN_CONFIG } from '../examples.js';

export interface WebhookTopicSetOptions extends Target {
  type: TopicType;
  url: string;
  enabled: boolean;
}

export function newWebhookTopicSetCommand(deps: WebhookDeps, run = webhookTopicSetRun): Command {
  const command = new Command('set')
    .description('Add a topic, or replace the topics of that type with this one')
    .argument('<type>', TOPIC_TYPES.join(' | '))
    .requiredOption('--url <url>', `callback URL (${CALLBACK_URL_HELP})`)
    .option('--disabled', 'keep the topic switched off')
    .option('--allow-private-url', ALLOW_PRIVATE_URL_HELP);
  completeValues(command, { type: { words: TOPIC_TYPES } });
  addTargetOptions(command);
  describeVerb(command, {
    operationIds: ['upsertWebhookTopic', 'getWebhookConfig'],
    output: 'records',
    examples: [
      { comment: 'deliver alarms to their own endpoint', command: 'fleetctl webhook-config topics set alarms --url https://hooks.example.com/alarms', given: GIVEN_CONFIG },
      { comment: 'declare a media topic, switched off for now', command: `${ENSURE_EXAMPLE_CONFIG}; fleetctl --sandbox webhook-config topics set media --url https://hooks.example.com/media --disabled` },
    ],
    notes: `A configuration holds at most ${MAX_TOPICS} topics. Exits with 5 when there is no configuration, 6 when --if-match is stale.`,
  });
  command.action(async (type: string, flags: OrgFlags & { url: string; disabled?: boolean; allowPrivateUrl?: boolean }) =>
    run(deps, {
      organizationId: orgFrom(flags),
      type: requireTopicType(type),
      url: requireCallbackUrl(flags.url, '--url', flags.allowPrivateUrl),
      enabled: !flags.disabled,
      ifMatch: parseIfMatch(flags.ifMatch),
    }),
  );
  return command;
}

export async function webhookTopicSetRun(deps: WebhookDeps, opts: WebhookTopicSetOptions): Promise<void> {
  const client = await webhookClient(deps, opts.organizationId, 'webhook-config topics set');
  const { pre, current } = await client.precondition(opts.ifMatch);
  if (current) {
    // contract: the upsert replaces every topic of that type with this one
    const count = current.config.topics.filter((t) => t.type !== opts.type).length + 1;
    if (count > MAX_TOPICS) throw new UsageError(`setting the ${opts.type} topic would make ${count} topics; a configuration holds at most ${MAX_TOPICS}`);
  }
  const topic = { is_enabled: opts.enabled, delivery: { url: opts.url } };
  await showConfig(deps.output(), await client.upsertTopic(opts.type, topic, pre));
  deps.io.info(`Set topic ${topicLabel({ type: opts.type, ...topic })}.`);
}
