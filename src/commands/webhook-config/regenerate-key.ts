import { Command } from 'commander';
import { safeText } from '../../shared/terminal-text.js';
import { describeVerb } from '../shared/help.js';
import { PROPAGATION_SECONDS, type Versioned } from './config-client.js';
import { addTargetOptions, confirmedChange, targetFrom, type OrgFlags, type Target, type WebhookDeps } from './options.js';
import { ENSURE_EXAMPLE_CONFIG, GIVEN_CONFIG } from './examples.js';

export interface WebhookRegenerateKeyOptions extends Target {
  yes: boolean;
}

export function newWebhookRegenerateKeyCommand(deps: WebhookDeps, run = webhookRegenerateKeyRun): Command {
  const command = new Command('regenerate-key')
    .description('Rotate the shared key sent in X-Webhook-Key, and print the new key once (asks first unless --yes)')
    .option('-y, --yes', 'do not ask for confirmation (required when not interactive)');
  addTargetOptions(command);
  describeVerb(command, {
    operationIds: ['regenerateWebhookAuthKey', 'getWebhookConfig'],
    output: 'document',
    prompts: true,
    examples: [
      { comment: 'rotate the key of your default organization (asks first)', command: 'fleetctl webhook-config regenerate-key', given: GIVEN_CONFIG, asks: true },
      {
        comment: 'rotate it in a script and keep it in a variable (stdout carries only the key)',
        command: `${ENSURE_EXAMPLE_CONFIG}; WEBHOOK_KEY=$(fleetctl --sandbox webhook-config regenerate-key --yes)`,
      },
      { comment: 'the new key as JSON: {"auth_key": "..."}', command: `${ENSURE_EXAMPLE_CONFIG}; fleetctl --sandbox webhook-config regenerate-key --yes --json` },
    ],
    notes:
      'The key is printed on stdout once: the service never shows it again (get shows only auth_key_hint).\n' +
      'The previous key may stay valid for up to 60 s, so receivers should accept both during the switch.\n' +
      'Without a terminal, --yes is required (exit 2 otherwise), as when stdout is captured: KEY=$(... --yes).',
  });
  command.action(async (flags: OrgFlags & { yes?: boolean }) => run(deps, { ...targetFrom(flags), yes: Boolean(flags.yes) }));
  return command;
}

export async function webhookRegenerateKeyRun(deps: WebhookDeps, opts: WebhookRegenerateKeyOptions): Promise<void> {
  const { client, pre } = await confirmedChange(deps, opts, 'webhook key not regenerated', question, 'webhook-config regenerate-key');
  const { authKey } = await client.regenerateKey(pre);
  // the one place a key is ever written: stdout, so it can go straight to a file or secret store
  const output = deps.output();
  if (output.isMachineReadable) await output.object({ auth_key: authKey });
  else output.text(authKey);
  deps.io.info('Save this key now: it will not be shown again.');
  deps.io.info(`The previous key may stay valid for up to ${PROPAGATION_SECONDS} s while the change propagates.`);
  const after = await client.read();
  deps.io.info(`${after.config.auth_key_hint === undefined ? 'New' : `Key hint ${safeText(after.config.auth_key_hint)}; new`} ETag ${after.etag}.`);
}

function question(org: string, current: Versioned | undefined): string {
  const now = current?.config.auth_key_hint !== undefined ? ` (now ${safeText(current.config.auth_key_hint)})` : '';
  return `Receivers that still check the old key start refusing deliveries within ${PROPAGATION_SECONDS} s. Regenerate the webhook key of organization ${org}${now}?`;
}
