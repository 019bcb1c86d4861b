import { Command } from 'commander';
import { TOPIC_TYPES, type TopicType } from '../../webhooks/index.js';
import { describeVerb } from '../shared/help.js';
import { completeValues } from '../../completion/values.js';
import { addOrganizationOption } from '../shared/organization.js';
import { collect } from '../shared/validate.js';
import { orgFrom, webhookClient, type OrgFlags, type WebhookDeps } from './options.js';
import { ALLOW_PRIVATE_URL_HELP, CALLBACK_URL_HELP, requireCallbackUrl, topicTypeList } from './topic-input.js';
import { showConfig } from './view.js';
import { EXAMPLE_URL, GIVEN_NO_CONFIG } from './examples.js';

export interface WebhookCreateOptions {
  organizationId?: string;
  url: string;
  topics: TopicType[];
}

export function newWebhookCreateCommand(deps: WebhookDeps, run = webhookCreateRun): Command {
  const command = new Command('create')
    .description('Create the webhook configuration of an organization, disabled; enable it afterwards')
    .requiredOption('--url <url>', `callback URL every topic delivers to (${CALLBACK_URL_HELP})`)
    .requiredOption('--topics <types>', 'topic types, comma-separated or repeated: events, alarms, media, live_gps, journeys', collect)
    .option('--allow-private-url', ALLOW_PRIVATE_URL_HELP);
  completeValues(command, { '--topics': { words: TOPIC_TYPES, commaList: true } });
  addOrganizationOption(command);
  describeVerb(command, {
    operationIds: ['replaceWebhookConfig', 'getWebhookConfig'],
    output: 'records',
    examples: [
      { comment: 'subscribe to events and alarms (created disabled)', command: `fleetctl webhook-config create --url ${EXAMPLE_URL} --topics events,alarms`, given: GIVEN_NO_CONFIG },
      {
        comment: 'start over: remove any configuration, then create one for events and alarms (disabled)',
        command: `fleetctl --sandbox webhook-config delete --yes >/dev/null 2>&1; fleetctl --sandbox webhook-config create --url ${EXAMPLE_URL} --topics events,alarms`,
      },
    ],
    notes:
      'The service refuses to create a configuration that is already enabled, so it is always created\n' +
      'disabled: check the receiver, then run `fleetctl webhook-config enable`. Exits with 6 when the\n' +
      'organization already has a configuration (change it with `topics set` or `apply`).',
  });
  command.action(async (flags: OrgFlags & { url: string; topics: string[]; allowPrivateUrl?: boolean }) =>
    run(deps, {
      organizationId: orgFrom(flags),
      url: requireCallbackUrl(flags.url, '--url', flags.allowPrivateUrl),
      topics: topicTypeList(flags.topics, '--topics'),
    }),
  );
  return command;
}

export async function webhookCreateRun(deps: WebhookDeps, opts: WebhookCreateOptions): Promise<void> {
  const client = await webhookClient(deps, opts.organizationId, 'webhook-config create');
  // the configuration as re-read after the mutation (spec: re-read for the new ETag)
  await showConfig(deps.output(), await client.create(opts.topics.map((type) => ({ type, is_enabled: true, delivery: { url: opts.url } }))));
  const org = client.organizationId;
  deps.io.info(`Created the webhook configuration of organization ${org}, disabled: nothing is delivered yet.`);
  deps.io.info(`Enable delivery with: fleetctl webhook-config enable --org ${org}`);
}
