// `fleetctl sandbox requests`: what clients actually sent to a running sandbox (GET /_sandbox/requests, the
// request journal), oldest first, with every Authorization header, secret and token redacted.
import { Command } from 'commander';
import type { Deps } from '../../factory.js';
import { UsageError } from '../../errors.js';
import { viewOf } from '../../output/columns.js';
import { completeValues } from '../../completion/values.js';
import { describeVerb } from '../shared/help.js';
import { callSandbox, type ControlDeps } from './control-client.js';
import { quoteInput } from '../../shared/terminal-text.js';
import { requireWholeNumber } from '../shared/validate.js';

export interface SandboxRequestsOptions {
  operationId?: string;
  clientId?: string;
  hardwareId?: string;
  status?: string;
  limit?: number;
  bodies: boolean;
}

type RequestsDeps = Pick<Deps, 'settings' | 'transport' | 'output' | 'io'> & ControlDeps;

export function newSandboxRequestsCommand(deps: RequestsDeps, run = sandboxRequestsRun): Command {
  const command = new Command('requests')
    .description('List the latest API and token requests a running sandbox received (its request journal), oldest first')
    .option('--operation-id <id>', 'only this operation (requestToken: the token endpoint)')
    .option('--client-id <id>', 'only this client')
    .option('--hardware-id <id>', 'only requests about this device')
    .option('--status <status>', 'only this status (503), class (5xx), or those without one (dropped: connections dropped, or left by the client)')
    .option('--limit <n>', 'the latest N only')
    .option('--bodies', 'include request and response bodies (secrets redacted, cut after 8 KiB)');
  completeValues(command, { '--hardware-id': 'hardware-id' });
  describeVerb(command, {
    output: 'records',
    uses: ['profile', 'endpoints', 'timeout', 'debug'],
    notes: 'Calls GET /_sandbox/requests on the sandbox that --base-url or FLEETCTL_BASE_URL names. The sandbox keeps\nthe latest 1000 requests (--journal-size); Authorization headers, client secrets and tokens are never kept.',
    examples: [
      { comment: 'the last five requests', command: 'fleetctl sandbox requests --limit 5' },
      { comment: 'what the reboots of one device got, failures included', command: 'fleetctl sandbox requests --operation-id rebootDevice --hardware-id HW-000001' },
      {
        comment: 'server errors, with bodies, one JSON object a line',
        command: 'fleetctl sandbox requests --status 5xx --bodies -o ndjson',
        // one server error to find: a fault answers one fleets list with 503
        given: 'fleetctl sandbox fault add --operation-id listFleets --status 503 --times 1 >/dev/null && fleetctl fleets list --max-retries 0 >/dev/null 2>&1; true',
      },
    ],
  });
  command.action(async (flags: Omit<SandboxRequestsOptions, 'limit' | 'bodies'> & { limit?: string; bodies?: boolean }) =>
    run(deps, { ...flags, status: statusFlag(flags.status), limit: flags.limit === undefined ? undefined : requireWholeNumber(flags.limit, '--limit', 1, 10_000), bodies: flags.bodies === true }),
  );
  return command;
}

export async function sandboxRequestsRun(deps: RequestsDeps, opts: SandboxRequestsOptions): Promise<void> {
  const query = { operation_id: opts.operationId, client_id: opts.clientId, hardware_id: opts.hardwareId, status: opts.status, limit: opts.limit, bodies: opts.bodies || undefined };
  const answer = await callSandbox(deps, 'listRequests', { query });
  const entries = answer.body ?? [];
  const view = viewOf('sandboxRequest');
  const bodies = ['request_body', 'response_body'];
  await deps.output().list(entries, opts.bodies ? { ...view, script: [...view.script, ...bodies], person: [...view.person, ...bodies] } : view);
  if (entries.length === 0) deps.io.info('No requests recorded that match.');
}

function statusFlag(value: string | undefined): string | undefined {
  if (value === undefined || /^([1-5]\d\d|[1-5]xx|dropped)$/.test(value)) return value;
  throw new UsageError(`--status must be a status such as 503, a class such as 5xx, or dropped, got ${quoteInput(value)}`);
}
