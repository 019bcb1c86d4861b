// Sends one command to many devices: N workers, each device once, results reported as they arrive.
import type { ApiClient } from '../../../api/client.js';
import { ApiError, CancelledError, FleetctlError, NetworkError } from '../../../errors.js';
import { TokenEndpointUnavailable } from '../../../auth/tokens.js';
import { sendDeviceCommand, type DeviceCommand, type DeviceCommandOutcome } from '../../../api/device-commands.js';

export interface BulkPlan {
  command: DeviceCommand;
  hardwareIds: string[];
  keyFor: (hardwareId: string) => string;
  concurrency: number;
}

/**
 * A failure that is not about one device but about the run (the token endpoint refused the credentials or the
 * scope, or could not give a token at all; the configuration is unusable): every other device would fail the
 * same way, so the run stops.
 */
export function isRunFatal(error: unknown): error is FleetctlError {
  if (error instanceof TokenEndpointUnavailable) return true;
  return error instanceof FleetctlError && !(error instanceof ApiError) && !(error instanceof NetworkError) && !(error instanceof CancelledError);
}

/**
 * Runs the plan; stops taking new devices when the signal aborts, and then rejects with its reason once the
 * requests in flight have ended. onResult sees every outcome, in the order they arrive. A run-fatal failure
 * (see isRunFatal) stops it too: that device is not reported (nothing reached the API for it) and the run
 * rejects with that error.
 */
export async function runBulk(
  api: Pick<ApiClient, 'call'>,
  plan: BulkPlan,
  opts: { signal: AbortSignal; onResult: (outcome: DeviceCommandOutcome) => void },
): Promise<void> {
  let next = 0;
  let fatal: FleetctlError | undefined;
  const worker = async (): Promise<void> => {
    while (!opts.signal.aborted && fatal === undefined && next < plan.hardwareIds.length) {
      const hardwareId = plan.hardwareIds[next++]!;
      const outcome = await sendDeviceCommand(api, {
        hardwareId,
        command: plan.command,
        idempotencyKey: plan.keyFor(hardwareId),
        signal: opts.signal,
      });
      if (isRunFatal(outcome.error)) {
        fatal ??= outcome.error;
        return;
      }
      opts.onResult(outcome);
    }
  };
  const workers = Array.from({ length: Math.max(1, Math.min(plan.concurrency, plan.hardwareIds.length)) }, worker);
  const settled = await Promise.allSettled(workers);
  if (opts.signal.aborted) throw opts.signal.reason instanceof Error ? opts.signal.reason : new Error('aborted');
  if (fatal) throw fatal;
  const failure = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (failure) throw failure.reason;
}
