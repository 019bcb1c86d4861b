// A device command (`devices reboot`, `devices wake-up`): what each verb is, and sending one to a single device named
// alone, its key used as given. The command line and the runs over many devices are command-verb.ts's and
// command-run.ts's.
import type { Deps } from '../../factory.js';
import { ApiError } from '../../errors.js';
import { confirmOrRequireYes } from '../../io/prompter.js';
import { commandTask, generateIdempotencyKey, isSuccess, missingCapability, type DeviceCommandOutcome } from '../../api/device-commands.js';
import type { BulkVerb } from '../../bulk/run.js';
import { runPipeline } from '../../bulk/pipeline.js';
import type { WaitOutcome } from '../../bulk/return-watcher.js';
import { rephrase } from '../shared/api-errors.js';
import { notBackError, withWait } from '../../bulk/wait-results.js';
import { acceptanceWith } from '../../records/acceptance.js';
import type { OperationId } from '../../openapi/operation-types.js';
import { planWaves } from '../../bulk/waves.js';
import { checkBeforeSending } from '../../bulk/preflight.js';
import { formatDuration } from '../../shared/duration.js';
import { DEFAULT_WAIT_TIMEOUT_MS, type WaitFlags } from './wave-flags.js';
import { stopReason } from '../../ledger/entry.js';

export interface DeviceCommandVerb extends BulkVerb {
  operationId: OperationId;
  summary: string;
}

export const REBOOT: DeviceCommandVerb = {
  command: 'reboot',
  name: 'reboot',
  operationId: 'rebootDevice',
  label: 'Reboot',
  summary: 'Reboot one device, a list, or a whole fleet (replay-safe: always sent with Idempotency-Keys)',
};

export const WAKE_UP: DeviceCommandVerb = {
  command: 'wake_up',
  name: 'wake-up',
  operationId: 'wakeUpDevice',
  label: 'Wake up',
  summary: 'Wake up one device, a list, or a whole fleet (replay-safe: always sent with Idempotency-Keys)',
};

export interface DeviceCommandOptions {
  hardwareId: string;
  /** Given with --idempotency-key; otherwise generated and printed. */
  idempotencyKey?: string;
  yes: boolean;
  /** --dry-run: show what would be sent (this very key), send nothing. */
  dryRun?: boolean;
  /** --wait: follow the device until it reports again. */
  wait?: WaitFlags;
}

export type DeviceCommandDeps = Pick<Deps, 'api' | 'output' | 'io' | 'prompter' | 'signal' | 'servedDocument' | 'clock' | 'ledger'>;

/** One device: a run of one target through the same pipeline, with no journal; the key is used as given (or generated and said). */
export async function deviceCommandRun(deps: DeviceCommandDeps, verb: DeviceCommandVerb, opts: DeviceCommandOptions): Promise<void> {
  // before the prompt, and before anything is sent: a --wait that cannot tell when the device reports says so now
  // the report time (read from the served document, the record boundary's) is loaded with --wait only
  const field = opts.wait && (await import('../../records/report-time.js')).waitReportTimeField(await deps.servedDocument(), opts.wait.reportTimeField);
  const api = await deps.api();
  // the scope, --report-time-field and (a dry run) the device itself, as the bulk engine checks them
  const check = { command: verb.command, verb: verb.name, pending: [opts.hardwareId], named: new Set([opts.hardwareId]), dryRun: Boolean(opts.dryRun), reportTimeField: opts.wait?.reportTimeField, signal: deps.signal };
  await checkBeforeSending(api, () => deps.servedDocument(), check);
  if (opts.dryRun) {
    const row = { hardware_id: opts.hardwareId, command: verb.command, idempotency_key: opts.idempotencyKey ?? '(generated when sent)' };
    await deps.output().list([row], ['hardware_id', 'command', 'idempotency_key']);
    deps.io.info(`Dry run: would send ${verb.name} to 1 device; nothing was sent.`);
    return;
  }
  await confirmOrRequireYes(deps, {
    yes: opts.yes,
    question: `${verb.label} device ${opts.hardwareId}?`,
    refusal: `${verb.label} of ${opts.hardwareId} not sent`,
  });
  const generated = opts.idempotencyKey === undefined;
  const key = opts.idempotencyKey ?? generateIdempotencyKey();
  const keyLine = `Idempotency-Key: ${key} (to replay this call safely, pass --idempotency-key ${key})`;
  const what = (outcome: DeviceCommandOutcome) => (outcome.result.status === 'replayed' ? 'replayed (already sent earlier with this key; not sent again)' : 'accepted');
  const wait = field ? { field, timeoutMs: opts.wait?.timeoutMs ?? DEFAULT_WAIT_TIMEOUT_MS } : undefined;
  let outcome: DeviceCommandOutcome | undefined;
  let waited: WaitOutcome | undefined;
  const id = opts.hardwareId;
  const ledger = deps.ledger();
  ledger.record({ command: `devices ${verb.name}` });
  // the client's own retries (no more for one device than for any other request), made by the pipeline
  await runPipeline<DeviceCommandOutcome>(
    {
      api, minRetries: 0, clock: deps.clock, signal: deps.signal, targets: [id], pending: [id], task: commandTask(verb.command, () => key),
      succeeded: (r) => isSuccess(r.status), repeatable: true, concurrency: 1, plan: planWaves(1, {}, { wait: wait !== undefined }), wait, ledger,
    },
    {
      say: (line) => deps.io.info(line),
      answered: (answer, followed) => {
        outcome = answer;
        if (!followed) return;
        if (generated) deps.io.info(keyLine);
        deps.io.info(`${verb.label} of ${id} ${what(answer)}; waiting until it reports again (at most ${formatDuration(wait!.timeoutMs)}).`);
      },
      waited: (_result, seen) => (waited = seen),
      missingField: (_id, name) => deps.io.warn(`the last-reported state of ${id} has no ${name}: pass the name of its report time with --report-time-field`),
    },
  ).catch((error: unknown) => {
    // interrupted while the request was out: the line says so, with no outcome for the device
    ledger.failed(stopReason(error, deps.signal));
    throw error;
  });
  if (!outcome || !isSuccess(outcome.result.status)) {
    // a 429, 5xx or lost answer may still have reached the device: only the same key retries it safely
    if (generated && outcome?.result.status === 'failed') {
      deps.io.info(`Idempotency-Key: ${key} (the ${verb.command} may have been sent: retry with --idempotency-key ${key} so it is not sent twice)`);
    }
    throw explain(outcome?.error, verb, id);
  }
  if (!waited) {
    await deps.output().object(outcome.response);
    deps.io.info(`${verb.label} of ${id} ${what(outcome)}.`);
    if (generated) deps.io.info(keyLine);
    return;
  }
  const { wait: seen, back_after_s } = withWait(outcome.result, waited);
  await deps.output().object(acceptanceWith(outcome.response, { wait: seen, back_after_s }));
  if (waited.back) deps.io.info(`${id} is back: it reported again after ${back_after_s}s.`);
  const notBack = notBackError(new Map([[id, waited]]));
  if (notBack) throw notBack;
}

/** A failure as the error to throw, saying which capability is missing when that is why. */
function explain(error: Error | undefined, verb: DeviceCommandVerb, hardwareId: string): Error {
  if (error instanceof ApiError && error.code === 'device.capability_missing') {
    const capability = missingCapability(error, verb.command);
    return rephrase(
      error,
      `device ${hardwareId} lacks the ${capability} capability`,
      `list the devices that can: fleetctl devices list --all -o ndjson | grep '"${capability}"'`,
    );
  }
  return error ?? new Error('the command failed');
}
