// One name for a device: the verbs whose endpoint takes a device id (uuid) also take its hardware id, looked up
// through the devices list filter (spec: GET /v1/devices?hardware_id=...).
import type { ApiClient } from '../../api/client.js';
import { lookupPaging } from '../../api/paginate.js';
import { ApiError, InvalidResponseError, UsageError } from '../../errors.js';
import { records } from '../../records/resources.js';
import { quoteInput } from '../../shared/terminal-text.js';
import { requireNonEmpty } from '../shared/validate.js';
import { requireHardwareId } from '../../shared/hardware-id.js';
import { hardwareIdCaseSuggestion } from './hardware-id-case.js';
import { canonicalUuid, isUuid } from '../../shared/uuid.js';
import { givenOrPicked, pickable, type PickerDeps } from '../shared/pick-list.js';
import { pickDevice, pickedDeviceId } from '../shared/pickers.js';

export const DEVICE_ARGUMENT = pickable('device id (uuid) or hardware id');

export interface ResolvedDevice {
  /** The device id (uuid) the endpoint takes. */
  id: string;
  /** How messages name the device: as the operator named it, with its id when that was a hardware id. */
  label: string;
}

/** A device as typed: a uuid is taken as the device id; anything else is a hardware id. */
export function parseDeviceRef(value: string): string {
  const ref = requireNonEmpty(value, 'device');
  // anything not a device id is a hardware id, held to the same rules as everywhere else
  return canonicalUuid(ref) ?? requireHardwareId(ref, 'hardware id');
}

/** A device argument as given, or the device picked on a terminal (by its id). */
export async function deviceArgument(deps: PickerDeps, value: string | undefined): Promise<string> {
  return parseDeviceRef(await givenOrPicked(deps.io, value, 'device', async () => pickedDeviceId(await pickDevice(deps))));
}

/** The device id for a uuid (no request) or a hardware id (one request): exit 5 when none, 2 when ambiguous. */
export async function resolveDevice(api: ApiClient, ref: string, signal?: AbortSignal): Promise<ResolvedDevice> {
  if (isUuid(ref)) return { id: ref, label: ref };
  // two are enough to know whether the hardware id names more than one device
  const pager = api.list('listDevices', { query: { hardware_id: ref }, signal }, lookupPaging(2));
  const found: string[] = [];
  for await (const device of pager) {
    const id = records.device.idOf(device);
    if (id === undefined) throw new InvalidResponseError(`the device with hardware id ${quoteInput(ref)} carries no device id in its record`, 'give the device id (uuid) instead');
    found.push(id);
  }
  if (found.length === 0) {
    const guess = await hardwareIdCaseSuggestion(api, ref, signal);
    throw new ApiError({
      status: 404,
      problem: { status: 404, code: 'resource.not_found', detail: `no device with hardware id ${quoteInput(ref)}${guess ? `; ${guess}` : ''}` },
      hint: 'list hardware ids with: fleetctl devices list --columns hardware_id,name',
    });
  }
  if (found.length > 1) {
    throw new UsageError(
      `hardware id ${quoteInput(ref)} names more than one device: ${found.join(', ')}${pager.hasMore ? ' and more' : ''}`,
      'give the device id (uuid) of the one you mean',
    );
  }
  return { id: found[0]!, label: `${ref} (${found[0]})` };
}
