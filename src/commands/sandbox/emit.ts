// `fleetctl sandbox emit TYPE [--count N]`: asks a running sandbox (the one --base-url / FLEETCTL_BASE_URL
// names) to emit webhook events from its seeded fleet, through its sandbox-only POST /_sandbox/emit.
import { Argument, Command } from 'commander';
import type { Deps } from '../../factory.js';
import { callSandbox, type ControlDeps } from './control-client.js';
import { EVENT_TYPES, type EventType } from '../../webhooks/index.js';
import { viewOf } from '../../output/columns.js';
import { describeVerb } from '../shared/help.js';
import { completeValues } from '../../completion/values.js';
import { optionalUuid, requireWholeNumber } from '../shared/validate.js';

export const MAX_EMIT_COUNT = 1000;

export interface SandboxEmitOptions {
  type: EventType;
  count: number;
  /** Devices of this organization and its descendants; default: the configured organization, else any. */
  organizationId?: string;
}

type SandboxEmitDeps = Pick<Deps, 'settings' | 'transport' | 'output' | 'io' | 'globals'> & ControlDeps;

export function newSandboxEmitCommand(deps: SandboxEmitDeps, run = sandboxEmitRun): Command {
  const command = new Command('emit')
    .description('Make a running sandbox emit webhook events from its seeded fleet (delivered to enabled subscriptions)')
    .addArgument(new Argument('<type>', 'event type').choices(EVENT_TYPES))
    .option('--count <n>', `how many events, 1 to ${MAX_EMIT_COUNT}`, '1')
    .option('--organization-id <id>', 'emit from the devices of this organization and its descendants (default: the configured organization)');
  completeValues(command, { '--organization-id': 'organization-id' });
  describeVerb(command, {
    output: 'records',
    uses: ['profile', 'endpoints', 'sandbox', 'timeout', 'debug'],
    notes: 'Calls POST /_sandbox/emit on the sandbox that --base-url or FLEETCTL_BASE_URL names.',
    examples: [
      { comment: 'one live GPS fix, from the sandbox FLEETCTL_BASE_URL names', command: 'fleetctl sandbox emit live.gps' },
      { comment: 'three live GPS fixes from the embedded sandbox', command: 'fleetctl --sandbox sandbox emit live.gps --count 3' },
      { comment: 'one event of each type, ids only', command: 'for t in live.gps journey.closed alarm.triggered event.generic media.ready; do fleetctl --sandbox sandbox emit $t --columns id -o csv; done' },
    ],
  });
  command.action(async (type: EventType, flags: { count: string; organizationId?: string }) =>
    run(deps, { type, count: requireWholeNumber(flags.count, '--count', 1, MAX_EMIT_COUNT), organizationId: optionalUuid(flags.organizationId, '--organization-id') }),
  );
  return command;
}

export async function sandboxEmitRun(deps: SandboxEmitDeps, opts: SandboxEmitOptions): Promise<void> {
  const organizationId = opts.organizationId ?? (await deps.settings()).organization_id.value;
  const answer = await callSandbox(deps, 'emitWebhookEvents', {
    body: { type: opts.type, count: opts.count, ...(organizationId ? { organization_id: organizationId } : {}) },
  });
  const events = answer.body?.events ?? [];
  await deps.output().list(events, viewOf('webhookEmitted'));
  if (events.length < opts.count) deps.io.info(`Only ${events.length} of ${opts.count} ${opts.type} events could be made from the seeded fleet.`);
  if (deps.globals().sandbox && events.some((e) => e.destinations > 0)) {
    // the embedded sandbox, and with it its delivery queues, stops when this command ends
    deps.io.info('The embedded sandbox (--sandbox) stops when this command ends, so these events are not delivered: run `fleetctl sandbox` in another shell and emit on it to receive them.');
  }
  const refused = events.reduce((sum, e) => sum + (e.refused ?? 0), 0);
  if (refused > 0) {
    deps.io.info(`${refused} deliveries were refused: a destination's queue is full (it is down or slow); see ${answer.baseUrl}/_sandbox/deliveries (outcome dropped_overflow).`);
  } else if (events.length > 0 && events.every((e) => e.destinations === 0)) {
    deps.io.info('No enabled webhook subscription covers these events: nothing will be delivered (see `fleetctl webhook-config get`).');
  }
}
