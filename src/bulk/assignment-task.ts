// One row of a bulk assignment: find the device (by id, or by hardware id through the devices list), read its
// current vehicle, and assign or unassign only when that changes something; an assignment already in place is
// `unchanged`, and nothing is sent for it. A dry run reads but never writes. Never throws for an API or network
// failure: that is the row's result (the bulk runner retries 429, 503 and dropped connections).
import type { ApiClient } from '../api/client.js';
import { lookupPaging } from '../api/paginate.js';
import { ApiError, CancelledError, FleetctlError } from '../errors.js';
import type { RequestBody } from '../openapi/operation-types.js';
import { isUuid } from '../shared/uuid.js';
import { records } from '../records/resources.js';
import type { AssignmentCommand } from './assignment-rows.js';

export type AssignmentStatus = 'assigned' | 'unassigned' | 'unchanged' | 'would_assign' | 'would_unassign' | 'not_found' | 'failed';

/** One row's result, as printed (-o json/ndjson) and journalled; `hardware_id` holds the device as the row named it. */
export interface AssignmentResult {
  hardware_id: string;
  device_id: string | null;
  command: AssignmentCommand;
  vehicle_id: string | null;
  status: AssignmentStatus;
  /** The HTTP status of the last answer; null when none came or nothing was sent. */
  http_status: number | null;
  code: string | null;
}

export interface AssignmentOutcome {
  result: AssignmentResult;
  error?: Error;
}

export function isAssignmentDone(result: AssignmentResult): boolean {
  return result.status !== 'failed';
}

export async function assignmentAttempt(
  api: ApiClient,
  row: { device: string; vehicle?: string },
  command: AssignmentCommand,
  /** vehicleMember: the assign command's member for the vehicle in the document in use (records/assignment.ts). */
  opts: { dryRun: boolean; signal: AbortSignal; vehicleMember: string },
): Promise<AssignmentOutcome> {
  const result: AssignmentResult = { hardware_id: row.device, device_id: null, command, vehicle_id: row.vehicle ?? null, status: 'failed', http_status: null, code: null };
  try {
    const record = await findDevice(api, row.device, opts.signal);
    if (record === AMBIGUOUS) return { result: { ...result, code: 'device.ambiguous' } };
    if (record === undefined) return { result: { ...result, status: 'not_found', http_status: 404, code: 'device.not_found' } };
    const id = records.device.idOf(record);
    if (id === undefined) return { result: { ...result, code: 'device.no_id' }, error: new Error(`the record of ${row.device} carries no id`) };
    result.device_id = id;
    const current = records.device.vehiclesOf(record);
    const inPlace = command === 'assign' ? current.includes(row.vehicle!) : current.length > 0 && current.every((v) => v === null);
    if (inPlace) return { result: { ...result, status: 'unchanged' } };
    if (opts.dryRun) return { result: { ...result, status: command === 'assign' ? 'would_assign' : 'would_unassign' } };
    const answer =
      command === 'assign'
        ? await api.call('assignDevice', { pathParams: { id }, body: { [opts.vehicleMember]: row.vehicle! } as RequestBody<'assignDevice'>, signal: opts.signal })
        : await api.call('unassignDevice', { pathParams: { id }, signal: opts.signal });
    return { result: { ...result, status: command === 'assign' ? 'assigned' : 'unassigned', http_status: answer.status } };
  } catch (error) {
    if (opts.signal.aborted || error instanceof CancelledError || !(error instanceof FleetctlError)) throw error;
    if (error instanceof ApiError) {
      const status = error.status === 404 ? 'not_found' : 'failed';
      return { result: { ...result, status, http_status: error.status, code: error.code ?? null }, error };
    }
    return { result: { ...result, code: error.name === 'NetworkError' ? 'network.error' : error.name }, error };
  }
}

const AMBIGUOUS = Symbol('several devices');

/** The device record: by id, or the one device the hardware id names (undefined when none, AMBIGUOUS when several). */
async function findDevice(api: ApiClient, ref: string, signal: AbortSignal): Promise<unknown> {
  if (isUuid(ref)) {
    try {
      return (await api.call('getDevice', { pathParams: { id: ref }, signal })).body;
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) return undefined;
      throw error;
    }
  }
  const found: unknown[] = [];
  for await (const device of api.list('listDevices', { query: { hardware_id: ref }, signal }, lookupPaging(2))) found.push(device);
  // a hardware id naming two devices is failed, not guessed: the row should give the device id
  return found.length > 1 ? AMBIGUOUS : found[0];
}
