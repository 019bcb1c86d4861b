import { Command } from 'commander';
import type { Deps } from '../../factory.js';
import { viewOf } from '../../output/columns.js';
import { describeVerb } from '../shared/help.js';
import { completeValues } from '../../completion/values.js';
import { addOrganizationOption } from '../shared/organization.js';
import { orgFrom, webhookClient, type OrgFlags } from './options.js';
import { DESIRED_FORMAT_HELP, readDesired, type DesiredState } from './desired.js';
import { ALLOW_PRIVATE_URL_HELP } from './topic-input.js';
import { settleUnmanaged, type UnmanagedMember } from './unmanaged-members.js';
import { planChanges } from './plan.js';
import { renderChangeLines, signPainter } from './plan-view.js';
import { DESIRED_EXAMPLE, GIVEN_DESIRED_FILE } from './examples.js';

export interface WebhookDiffOptions {
  organizationId?: string;
  desired: DesiredState;
  /** Members of the file fleetctl does not manage: left alone if the service's configuration has them. */
  unmanaged?: UnmanagedMember[];
  source: string;
}

type WebhookDiffDeps = Pick<Deps, 'api' | 'settings' | 'output' | 'io' | 'prompter' | 'signal' | 'ledger'>;

export function newWebhookDiffCommand(deps: WebhookDiffDeps, run = webhookDiffRun): Command {
  const command = new Command('diff')
    .description('Show what `apply` would change to reach a desired-state file (changes nothing)')
    .requiredOption('-f, --file <path>', 'desired-state file (JSON or YAML, as `get -o json|yaml` prints it), or - for stdin')
    .option('--allow-private-url', ALLOW_PRIVATE_URL_HELP);
  completeValues(command, { '--file': 'file' });
  addOrganizationOption(command);
  describeVerb(command, {
    operationIds: ['getWebhookConfig'],
    output: 'records',
    examples: [
      { comment: 'what applying the document in webhooks.json would change', command: 'fleetctl webhook-config diff -f webhooks.json', given: GIVEN_DESIRED_FILE },
      { comment: 'the same, the document on stdin', command: `echo '${DESIRED_EXAMPLE}' | fleetctl --sandbox webhook-config diff -f -` },
      { comment: 'the same as a JSON change list', command: `echo '${DESIRED_EXAMPLE}' | fleetctl --sandbox webhook-config diff -f - -o json` },
    ],
    notes: `${DESIRED_FORMAT_HELP}\n\nExits with 0 whether or not there are differences; -o json prints [] when there are none.`,
  });
  command.action(async (flags: OrgFlags & { file: string; allowPrivateUrl?: boolean }) => {
    const organizationId = orgFrom(flags);
    await run(deps, { organizationId, ...(await readDesired(flags.file, deps.io, flags.allowPrivateUrl, deps.signal)) });
  });
  return command;
}

export async function webhookDiffRun(deps: WebhookDiffDeps, opts: WebhookDiffOptions): Promise<void> {
  const client = await webhookClient(deps, opts.organizationId);
  const current = await client.readIfExists();
  settleUnmanaged(opts.unmanaged ?? [], current?.config, opts.source, deps.io);
  const changes = planChanges(current?.config, opts.desired);
  const output = deps.output();
  if (output.isMachineReadable) {
    await output.list(changes, viewOf('webhookChange'));
    return;
  }
  const org = client.organizationId;
  if (changes.length === 0) {
    deps.io.info(`No differences: the webhook configuration of organization ${org} matches ${opts.source}.`);
    return;
  }
  const header = current ? `Webhook configuration of organization ${org} (ETag ${current.etag}):` : `Webhook configuration of organization ${org} (none yet):`;
  output.text(`${header}\n${renderChangeLines(changes, signPainter(deps.io.outTheme()))}`);
}
