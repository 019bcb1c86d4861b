// Sending one device command (reboot, wake-up) for one hardware id with a given Idempotency-Key, and turning
// the answer into a per-device result: the unit of work of both `devices reboot HW` and a bulk run.
import { nodeCrypto } from '../shared/node-crypto.js';
import { ApiError, CancelledError, FleetctlError, UsageError } from '../errors.js';
import type { ApiResponse } from './client.js';
import type { CallOptions } from '../openapi/operation-types.js';
import { headerValue } from './problem.js';
import { quoteInput } from '../shared/terminal-text.js';

export type DeviceCommand = 'reboot' | 'wake_up';

type CommandOperation = 'rebootDevice' | 'wakeUpDevice';
export const COMMAND_OPERATION: Record<DeviceCommand, CommandOperation> = { reboot: 'rebootDevice', wake_up: 'wakeUpDevice' };

/** What sending a command needs of the API client: its call for these two operations (spec: the 202 body's fields are not shown). */
export interface CommandSender {
  call(operationId: CommandOperation, options: CallOptions<CommandOperation>): Promise<ApiResponse>;
}

/** spec: Limits — Idempotency-Key at most 200 characters. */
export const MAX_IDEMPOTENCY_KEY_LENGTH = 200;

export type CommandStatus = 'accepted' | 'replayed' | 'capability_missing' | 'not_found' | 'failed';

/** One device's outcome, as printed with -o json/ndjson and appended to a bulk journal. */
export interface DeviceCommandResult {
  hardware_id: string;
  status: CommandStatus;
  /** The HTTP status of the last answer; null when no answer arrived (connection failure). */
  http_status: number | null;
  /** The problem `code` of a failure (or fleetctl's own, such as network.error); null on success. */
  code: string | null;
  idempotency_key: string;
  command: DeviceCommand;
}

/** The result plus what only this process needs: the 202 body, the error of a failure. */
export interface DeviceCommandOutcome {
  result: DeviceCommandResult;
  response?: unknown;
  error?: Error;
}

export function checkIdempotencyKey(key: string, flag = '--idempotency-key'): string {
  if (key.trim().length === 0) throw new UsageError(`${flag} must not be empty`);
  if (key.length > MAX_IDEMPOTENCY_KEY_LENGTH) {
    throw new UsageError(`${flag} must be at most ${MAX_IDEMPOTENCY_KEY_LENGTH} characters, got ${key.length}`);
  }
  if (!isHeaderSafeKey(key)) throw new UsageError(`${flag} ${quoteInput(key)} must be printable ASCII: it travels as an HTTP header`);
  return key;
}

/** Printable ASCII: what an Idempotency-Key header carries byte for byte, whatever the server's charset. */
export function isHeaderSafeKey(key: string): boolean {
  return /^[\x20-\x7e]*$/.test(key);
}

/** A fresh key for a one-off command, printed so the call can be replayed. */
export function generateIdempotencyKey(): string {
  return `fleetctl-${nodeCrypto().randomUUID()}`;
}

export function isSuccess(status: CommandStatus): boolean {
  return status === 'accepted' || status === 'replayed';
}

/**
 * Sends the command once (the API client retries 429, 503 and dropped connections: safe, the key is the same).
 * Never throws for an API or network failure (a FleetctlError): that becomes the result. Cancellation and
 * anything else (a bug) do throw.
 */
export async function sendDeviceCommand(
  api: CommandSender,
  opts: { hardwareId: string; command: DeviceCommand; idempotencyKey: string; signal?: AbortSignal },
): Promise<DeviceCommandOutcome> {
  const base = { hardware_id: opts.hardwareId, idempotency_key: opts.idempotencyKey, command: opts.command };
  try {
    const answer = await api.call(COMMAND_OPERATION[opts.command], {
      pathParams: { hardwareId: opts.hardwareId },
      headers: { 'Idempotency-Key': opts.idempotencyKey },
      signal: opts.signal,
    });
    // The sandbox marks an answer replayed from its idempotency record; a real API may not say so.
    const replayed = headerValue(answer.headers['idempotent-replayed']) === 'true';
    return { result: { ...base, status: replayed ? 'replayed' : 'accepted', http_status: answer.status, code: null }, response: answer.body };
  } catch (error) {
    // Only the failures of a request become a result; anything else is a bug (or a test's assertion): it propagates.
    if (opts.signal?.aborted || error instanceof CancelledError || !(error instanceof FleetctlError)) throw error;
    return { result: { ...base, ...failureOf(error) }, error };
  }
}

/** One device's attempt as the pipeline's task (bulk/pipeline.ts): the run's command, with the device's own key. */
export function commandTask(command: DeviceCommand, keyFor: (hardwareId: string) => string) {
  return (api: CommandSender, hardwareId: string, signal: AbortSignal): Promise<DeviceCommandOutcome> =>
    sendDeviceCommand(api, { hardwareId, command, idempotencyKey: keyFor(hardwareId), signal });
}

function failureOf(error: FleetctlError): Pick<DeviceCommandResult, 'status' | 'http_status' | 'code'> {
  if (error instanceof ApiError) {
    const code = error.code ?? null;
    if (error.status === 422 && code === 'device.capability_missing') return { status: 'capability_missing', http_status: 422, code };
    if (error.status === 404) return { status: 'not_found', http_status: 404, code };
    return { status: 'failed', http_status: error.status, code };
  }
  return { status: 'failed', http_status: null, code: error.name === 'NetworkError' ? 'network.error' : error.name };
}

/** The capability a 422 device.capability_missing names, for the message. */
export function missingCapability(error: unknown, command: DeviceCommand): string {
  const named = error instanceof ApiError ? error.problem?.capability : undefined;
  return typeof named === 'string' ? named : command;
}
