// `fleetctl webhook trigger TYPE --to URL`: sends one valid sample event of that type, with the delivery
// headers the service sends (X-Webhook-Key, X-Delivery-Attempt, Idempotency-Key, traceparent), to any
// receiver, to test it. Exit 0 on a 2xx answer; otherwise the exit code of the receiver's HTTP status.
import { Argument, Command } from 'commander';
import type { Deps } from '../../factory.js';
import { timeoutMs } from '../../config/global-flags.js';
import { ApiError, NetworkError } from '../../errors.js';
import { EVENT_TYPES, type EventType } from '../../webhooks/index.js';
import { describeVerb } from '../shared/help.js';
import { completeValues } from '../../completion/values.js';
import { requireHardwareId } from '../../shared/hardware-id.js';
import { addKeyOptions, httpUrl, keyFrom, type KeyFlags } from './options.js';

/** The sample's source and dataschema when no base URL is configured. */
export const SAMPLE_BASE_URL = 'https://api.fleet.example';

export interface WebhookTriggerOptions {
  type: EventType;
  to: string;
  key: string;
  hardwareId?: string;
}

type WebhookTriggerDeps = Pick<Deps, 'io' | 'output' | 'env' | 'globals' | 'settings'>;

export function newWebhookTriggerCommand(deps: WebhookTriggerDeps, run = webhookTriggerRun): Command {
  const command = new Command('trigger')
    .description('Send one valid sample event, with the delivery headers, to a webhook receiver to test it')
    .addArgument(new Argument('<type>', 'event type').choices(EVENT_TYPES))
    .requiredOption('--to <url>', "the receiver's URL (http:// or https://)");
  addKeyOptions(command, 'to send in X-Webhook-Key');
  command.option('--hardware-id <id>', 'hardware id of the sample device', 'HW-000001');
  completeValues(command, { '--hardware-id': 'hardware-id' });
  describeVerb(command, {
    output: 'records',
    // the profile's base URL goes into the sample's links; nothing is sent to the API
    uses: ['profile', 'endpoints', 'timeout'],
    notes: 'Prints the sent event id, the receiver\'s status and the Idempotency-Key; -o json adds the whole envelope.',
    examples: [
      {
        comment: 'test a receiver on port 4011 with a sample alarm, the key in FLEETCTL_WEBHOOK_KEY',
        command: 'fleetctl webhook trigger alarm.triggered --to http://127.0.0.1:4011/hooks',
        given: 'export FLEETCTL_WEBHOOK_KEY=demo-key; fleetctl webhook listen --port 4011 --max-events 1 >/dev/null & sleep 2',
      },
      {
        comment: 'test a receiver with a sample alarm (here a local `webhook listen` that exits after one event)',
        command: 'export FLEETCTL_WEBHOOK_KEY=demo-key; fleetctl webhook listen --port 4011 --max-events 1 >/dev/null & sleep 2; fleetctl webhook trigger alarm.triggered --to http://127.0.0.1:4011/hooks; wait $!',
      },
    ],
  });
  command.action(async (type: EventType, flags: KeyFlags & { to: string; hardwareId: string }) =>
    run(deps, { type, to: httpUrl(flags.to, '--to'), key: keyFrom(flags, deps.env), hardwareId: requireHardwareId(flags.hardwareId, '--hardware-id') }),
  );
  return command;
}

export async function webhookTriggerRun(deps: WebhookTriggerDeps, opts: WebhookTriggerOptions): Promise<void> {
  // The sample's links point at the API the profile uses, as a real delivery's would.
  const baseUrl = (await deps.settings()).base_url.value ?? SAMPLE_BASE_URL;
  const { triggerSampleEvent } = await import('../../webhooks/index.js');
  const { event, headers, outcome } = await triggerSampleEvent(opts.type, {
    to: opts.to, key: opts.key, baseUrl, hardwareId: opts.hardwareId, timeoutMs: timeoutMs(deps.globals()),
  });
  if ('error' in outcome) {
    throw new NetworkError(`could not deliver to ${opts.to}: ${outcome.error}`, 'is the receiver running? (`fleetctl webhook listen` starts one)');
  }
  const output = deps.output();
  const result = {
    id: event.id, type: event.type, to: opts.to, status: outcome.status, idempotency_key: headers['idempotency-key'],
    ...(output.isMachineReadable ? { event, answer: outcome.body } : {}),
  };
  await output.object(result, output.isMachineReadable ? undefined : ['id', 'type', 'to', 'status', 'idempotency_key']);
  if (outcome.status < 200 || outcome.status >= 300) {
    const answer = outcome.body.trim().slice(0, 300);
    throw new ApiError({
      status: outcome.status,
      message: `the receiver answered HTTP ${outcome.status}${answer ? `: ${answer}` : ''}`,
      hint: hintFor(outcome.status),
    });
  }
  deps.io.info(`Delivered ${event.type} ${event.id}: HTTP ${outcome.status}.`);
}

function hintFor(status: number): string | undefined {
  if (status === 401) return 'check the key: it must be the one the receiver expects (--key / --key-env)';
  // spec Delivery rule 1: only a 2xx acknowledges; a redirect is not followed
  if (status >= 300 && status < 400) return 'deliveries do not follow redirects: the service counts a 3xx as a failure and retries; use the final URL';
  return undefined;
}
