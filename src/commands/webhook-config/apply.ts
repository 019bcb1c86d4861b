import { Command } from 'commander';
import { ExitCode, FleetctlError } from '../../errors.js';
import type { Deps } from '../../factory.js';
import { describeVerb } from '../shared/help.js';
import { completeValues } from '../../completion/values.js';
import { PROPAGATION_SECONDS, type Precondition, type Versioned, type WebhookConfigClient } from './config-client.js';
import { addTargetOptions, targetFrom, webhookClient, type OrgFlags, type Target } from './options.js';
import { DESIRED_FORMAT_HELP, readDesired, type DesiredState } from './desired.js';
import { ALLOW_PRIVATE_URL_HELP } from './topic-input.js';
import { settleUnmanaged, type UnmanagedMember } from './unmanaged-members.js';
import { planChanges, removedTopics, type Change } from './plan.js';
import { confirmOrRequireYes } from '../../io/prompter.js';
import { safeText } from '../../shared/terminal-text.js';
import { changeLines } from './plan-view.js';
import { showConfig } from './view.js';
import { DESIRED_EXAMPLE, GIVEN_DESIRED_FILE } from './examples.js';

export interface WebhookApplyOptions extends Target {
  desired: DesiredState;
  /** Members of the file fleetctl does not manage: left alone if the service's configuration has them. */
  unmanaged?: UnmanagedMember[];
  source: string;
  /** Removing a topic is confirmed on a terminal, and needs --yes otherwise (as `topics remove`). */
  yes?: boolean;
}

type WebhookApplyDeps = Pick<Deps, 'api' | 'settings' | 'output' | 'io' | 'prompter' | 'signal' | 'ledger'>;

/** --if-match no longer names the configuration: nothing was changed (exit 6, like a 412). */
export class StaleEtagError extends FleetctlError {
  readonly exitCode = ExitCode.conflict;
  override name = 'StaleEtagError';
}

export function newWebhookApplyCommand(deps: WebhookApplyDeps, run = webhookApplyRun): Command {
  const command = new Command('apply')
    .description('Make the webhook configuration match a desired-state file, with only the calls needed')
    .requiredOption('-f, --file <path>', 'desired-state file (JSON or YAML, as `get -o json|yaml` prints it), or - for stdin')
    .option('--allow-private-url', ALLOW_PRIVATE_URL_HELP)
    .option('-y, --yes', 'remove topics without asking (required for a removal when not interactive)');
  completeValues(command, { '--file': 'file' });
  addTargetOptions(command);
  describeVerb(command, {
    operationIds: ['getWebhookConfig', 'replaceWebhookConfig', 'updateWebhookConfig', 'upsertWebhookTopic', 'deleteWebhookTopic'],
    output: 'records',
    prompts: true,
    examples: [
      { comment: 'make the configuration what webhooks.json describes', command: 'fleetctl webhook-config apply -f webhooks.json', given: GIVEN_DESIRED_FILE },
      { comment: 'the same from stdin (run it twice: the second run changes nothing)', command: `echo '${DESIRED_EXAMPLE}' | fleetctl --sandbox webhook-config apply -f -` },
    ],
    notes:
      `${DESIRED_FORMAT_HELP}\n\n` +
      'apply reads the configuration, then makes only the calls that differ, each with the current If-Match:\n' +
      'a missing configuration is created disabled first, topics are set before others are removed, and\n' +
      'delivery is switched off first or on last. When nothing differs, only the read is made. With --if-match, nothing\n' +
      'is changed unless the configuration still has that ETag (as `diff` showed it); exit 6 otherwise. Removing a\n' +
      'topic stops its deliveries: apply asks first on a terminal, and needs --yes otherwise (exit 2, nothing changed).',
  });
  command.action(async (flags: OrgFlags & { file: string; allowPrivateUrl?: boolean; yes?: boolean }) => {
    const target = targetFrom(flags);
    await run(deps, { ...target, yes: Boolean(flags.yes), ...(await readDesired(flags.file, deps.io, flags.allowPrivateUrl, deps.signal)) });
  });
  return command;
}

export async function webhookApplyRun(deps: WebhookApplyDeps, opts: WebhookApplyOptions): Promise<void> {
  const client = await webhookClient(deps, opts.organizationId, 'webhook-config apply');
  const org = client.organizationId;
  const current = await client.readIfExists();
  settleUnmanaged(opts.unmanaged ?? [], current?.config, opts.source, deps.io);
  if (opts.ifMatch !== undefined && opts.ifMatch !== '*' && current?.etag !== opts.ifMatch) {
    throw new StaleEtagError(
      current ? `the webhook configuration changed: its ETag is ${current.etag}, not ${opts.ifMatch}` : `organization ${org} has no webhook configuration to match --if-match ${opts.ifMatch}`,
      `nothing was changed: review it with \`fleetctl webhook-config diff -f ${opts.source === 'stdin' ? '-' : opts.source}\` and retry with the ETag it shows (or without --if-match)`,
    );
  }
  const changes = planChanges(current?.config, opts.desired);
  if (changes.length === 0) {
    deps.io.info(`No changes: the webhook configuration of organization ${org} already matches ${opts.source}.`);
    await showConfig(deps.output(), current!);
    return;
  }
  await confirmRemovals(deps, changes, org, opts);
  let pre: Precondition | undefined = current && { etag: opts.ifMatch ?? current.etag, fromUser: opts.ifMatch !== undefined };
  let after: Versioned | undefined;
  for (const change of changes) {
    after = await applyChange(client, change, pre);
    // spec: the ETag of the re-read after each mutation is the If-Match of the next, never the mutation answer's
    pre = { etag: after.etag, fromUser: false };
    for (const line of changeLines(change)) deps.io.info(`${line.sign} ${line.text}`);
  }
  await showConfig(deps.output(), after!);
  deps.io.info(`Applied ${changes.length} change${changes.length === 1 ? '' : 's'} to the webhook configuration of organization ${org}.`);
  if (changes.some((c) => c.op === 'set_enabled')) deps.io.info(`Switching delivery takes up to ${PROPAGATION_SECONDS} s to propagate.`);
}

/** Topics the file drops stop their deliveries: asked on a terminal, --yes otherwise, before any change is made. */
async function confirmRemovals(deps: WebhookApplyDeps, changes: readonly Change[], org: string, opts: WebhookApplyOptions): Promise<void> {
  const removed = removedTopics(changes);
  if (removed.length === 0) return;
  const types = [...new Set(removed.map((topic) => topic.type))];
  const named = `the ${types.join(', ')} topic${types.length === 1 ? '' : 's'}`;
  const urls = removed.map((topic) => safeText(topic.delivery.url));
  const where = urls.length > 3 ? `${urls.slice(0, 3).join(', ')} and ${urls.length - 3} more` : urls.join(', ');
  await confirmOrRequireYes(deps, {
    yes: opts.yes,
    question: `${opts.source} removes ${named}: deliveries to ${where} stop within ${PROPAGATION_SECONDS} s. Apply ${changes.length} change${changes.length === 1 ? '' : 's'} to the webhook configuration of organization ${org}?`,
    refusal: `nothing applied: ${opts.source} removes ${named}`,
  });
}

/** One call with the current If-Match; answers the configuration as re-read after it. */
async function applyChange(client: WebhookConfigClient, change: Change, pre: Precondition | undefined): Promise<Versioned> {
  const need = (): Precondition => {
    if (!pre) throw new Error(`no ETag for ${change.op}`);
    return pre;
  };
  switch (change.op) {
    case 'create':
      return client.create(change.after.topics);
    case 'set_enabled':
      return client.setEnabled(change.after, need());
    case 'set_topic':
      return client.upsertTopic(change.type, { is_enabled: change.after.is_enabled, delivery: change.after.delivery }, need());
    case 'remove_topic':
      return client.removeTopic(change.type, need());
    case 'replace_topics':
      return client.replace({ is_enabled: change.is_enabled, topics: change.after }, need());
  }
}
