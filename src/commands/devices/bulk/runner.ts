// Sends one command to many devices: N workers, each device once, results reported as they arrive.
import type { ApiClient } from '../../../api/client.js';
import { sendDeviceCommand, type DeviceCommand, type DeviceCommandOutcome } from '../../../api/device-commands.js';

export interface BulkPlan {
  command: DeviceCommand;
  hardwareIds: string[];
  keyFor: (hardwareId: string) => string;
  concurrency: number;
}

/**
 * Runs the plan; stops taking new devices when the signal aborts, and then rejects with its reason once the
 * requests in flight have ended. onResult sees every outcome, in the order they arrive.
 */
export async function runBulk(
  api: Pick<ApiClient, 'call'>,
  plan: BulkPlan,
  opts: { signal: AbortSignal; onResult: (outcome: DeviceCommandOutcome) => void },
): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (!opts.signal.aborted && next < plan.hardwareIds.length) {
      const hardwareId = plan.hardwareIds[next++]!;
      const outcome = await sendDeviceCommand(api, {
        hardwareId,
        command: plan.command,
        idempotencyKey: plan.keyFor(hardwareId),
        signal: opts.signal,
      });
      opts.onResult(outcome);
    }
  };
  const workers = Array.from({ length: Math.max(1, Math.min(plan.concurrency, plan.hardwareIds.length)) }, worker);
  const settled = await Promise.allSettled(workers);
  if (opts.signal.aborted) throw opts.signal.reason instanceof Error ? opts.signal.reason : new Error('aborted');
  const failure = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (failure) throw failure.reason;
}
