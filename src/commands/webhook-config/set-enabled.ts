// `enable` and `disable`: one PATCH {is_enabled}, two verbs.
import { Command } from 'commander';
import { describeVerb } from '../shared/help.js';
import { PROPAGATION_SECONDS } from './config-client.js';
import { addTargetOptions, targetFrom, webhookClient, type OrgFlags, type Target, type WebhookDeps } from './options.js';
import { showConfig } from './view.js';
import { CURRENT_ETAG, ENSURE_EXAMPLE_CONFIG, GIVEN_CONFIG } from './examples.js';

export interface WebhookSetEnabledOptions extends Target {
  enabled: boolean;
}

export function newWebhookEnableCommand(deps: WebhookDeps, run = webhookSetEnabledRun): Command {
  return newSetEnabledCommand(deps, run, true);
}

export function newWebhookDisableCommand(deps: WebhookDeps, run = webhookSetEnabledRun): Command {
  return newSetEnabledCommand(deps, run, false);
}

function newSetEnabledCommand(deps: WebhookDeps, run: typeof webhookSetEnabledRun, enabled: boolean): Command {
  const verb = enabled ? 'enable' : 'disable';
  const command = new Command(verb).description(`Switch webhook delivery ${enabled ? 'on' : 'off'} for an organization (takes up to 60 s to propagate)`);
  addTargetOptions(command);
  describeVerb(command, {
    operationIds: ['updateWebhookConfig', 'getWebhookConfig'],
    output: 'records',
    examples: [
      { comment: `${verb} delivery of your default organization`, command: `fleetctl webhook-config ${verb}`, given: GIVEN_CONFIG },
      {
        comment: `${verb} only if nobody changed the configuration since you read its ETag`,
        command: `${ENSURE_EXAMPLE_CONFIG}; fleetctl --sandbox webhook-config ${verb} --if-match ${CURRENT_ETAG}`,
      },
    ],
    notes: 'Exits with 6 when --if-match is stale (the configuration changed since), 5 when there is no configuration.',
  });
  command.action(async (flags: OrgFlags) => run(deps, { ...targetFrom(flags), enabled }));
  return command;
}

export async function webhookSetEnabledRun(deps: WebhookDeps, opts: WebhookSetEnabledOptions): Promise<void> {
  const client = await webhookClient(deps, opts.organizationId, `webhook-config ${opts.enabled ? 'enable' : 'disable'}`);
  const state = opts.enabled ? 'enabled' : 'disabled';
  const { pre, current } = await client.precondition(opts.ifMatch);
  if (current && current.config.is_enabled === opts.enabled) {
    deps.io.info(`Webhook delivery of organization ${client.organizationId} is already ${state}; nothing changed.`);
    await showConfig(deps.output(), current);
    return;
  }
  await showConfig(deps.output(), await client.setEnabled(opts.enabled, pre));
  deps.io.info(`Webhook delivery of organization ${client.organizationId} ${state}; the change takes up to ${PROPAGATION_SECONDS} s to propagate.`);
}
