// What a device command checks before anything is sent, so a mistake costs nothing: the token for the command's
// scope (a profile without it fails before the prompt, not after), every device named by hardware id looked up
// in a dry run (a typo is exit 5 there, as it would be in the real run), and a --report-time-field that the
// document, or else a device's own last-reported state, shows not to be there.
import type { ApiClient } from '../api/client.js';
import { COMMAND_OPERATION, type DeviceCommand } from '../api/device-commands.js';
import type { ServedDocument } from '../api/served-document.js';
import { ApiError, NotFoundError, UsageError } from '../errors.js';
import { scopeFor } from '../openapi/operations.js';
import { quoteInput } from '../shared/terminal-text.js';
import { sampleOf } from './capability.js';

export interface SendingCheck {
  command: DeviceCommand;
  /** The verb as typed, for messages. */
  verb: string;
  /** The devices about to be sent to, and those of them named by hardware id (no record read yet). */
  pending: readonly string[];
  named: ReadonlySet<string>;
  dryRun: boolean;
  /** --report-time-field as given. */
  reportTimeField?: string;
  signal: AbortSignal;
}

/** Every check, in the order a person would want to hear of a mistake: who may send, what is watched, to whom. */
export async function checkBeforeSending(api: ApiClient, servedDocument: () => Promise<ServedDocument>, check: SendingCheck): Promise<void> {
  if (check.pending.length === 0) return;
  await requireCommandScope(api, check.command);
  if (check.reportTimeField !== undefined) {
    const first = check.pending[0]!;
    await checkReportTimeField(await servedDocument(), check.reportTimeField, async () => (await api.call('getDeviceLastReported', { pathParams: { hardwareId: first }, signal: check.signal })).body);
  }
  if (!check.dryRun) return;
  const named = check.pending.filter((id) => check.named.has(id));
  const unknown = await unknownHardwareIds(api, named, check.signal);
  if (unknown.length > 0) throw unknownDevicesError(unknown, check.pending.length, check.verb);
}

/** Look-ups of a dry run in flight at once: a list of thousands is read in seconds, not hammered. */
const LOOKUPS_IN_FLIGHT = 8;

/** A token for the scope the command needs: refused by the issuer (invalid_scope), the run stops before it asks. */
export async function requireCommandScope(api: Pick<ApiClient, 'accessToken'>, command: DeviceCommand): Promise<void> {
  await api.accessToken(scopeFor(COMMAND_OPERATION[command]));
}

/** The hardware ids no device of the service has (spec: GET /v1/devices?hardware_id=), in the order given. */
export async function unknownHardwareIds(api: ApiClient, ids: readonly string[], signal: AbortSignal): Promise<string[]> {
  const known = new Set<string>();
  let next = 0;
  const worker = async () => {
    while (next < ids.length) {
      const id = ids[next++]!;
      // the pager follows has_more: an empty first page with more to come is not "unknown"
      for await (const _device of api.list('listDevices', { query: { hardware_id: id }, signal }, { limit: 1, all: true })) {
        known.add(id);
        break;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(LOOKUPS_IN_FLIGHT, ids.length) }, worker));
  return ids.filter((id) => !known.has(id));
}

/** A dry run names the devices the service does not know, as the real run would find them (exit 5). */
export function unknownDevicesError(unknown: readonly string[], total: number, verb: string): NotFoundError {
  const n = unknown.length;
  return new NotFoundError(
    `${n} of the ${total} device${total === 1 ? '' : 's'} named ${n === 1 ? 'is' : 'are'} unknown to the service: ${sampleOf([...unknown], 20)}; the ${verb} would fail for ${n === 1 ? 'it' : 'them'} (not found)`,
    'check the hardware ids with fleetctl devices list --all --columns hardware_id',
  );
}

/**
 * --report-time-field NAME, checked before sending: refused when the service's document describes the
 * last-reported state without NAME, or, where no document says, when the first device's last-reported state
 * lacks it (a device that never reported, 404, tells nothing). A bundled document describes the sandbox, not
 * this service: it is no answer.
 */
export async function checkReportTimeField(served: ServedDocument, name: string, firstDevice: () => Promise<unknown>): Promise<void> {
  // the record boundary's reading of report times (and of the document) loads with --report-time-field only
  const described = served.source === 'bundled' ? undefined : (await import('../records/report-time.js')).describedLastReportedFields(served.document);
  if (described && described.length > 0) {
    if (described.includes(name)) return;
    throw new UsageError(
      `--report-time-field ${quoteInput(name)}: the service's API document describes the last-reported state without it (its members: ${described.slice(0, 12).join(', ')}${described.length > 12 ? ', ...' : ''})`,
      'name the member that says when the device reported (see: fleetctl devices last-reported HW -o json)',
    );
  }
  const record = await firstDevice().catch((error: unknown) => {
    if (error instanceof ApiError && error.status === 404) return undefined;
    throw error;
  });
  if (record === undefined || hasMember(record, name)) return;
  throw new UsageError(
    `--report-time-field ${quoteInput(name)}: the last-reported state of the first device has no such member`,
    'name the member that says when the device reported (see: fleetctl devices last-reported HW -o json)',
  );
}

/** Whether a record has the (dotted) member at all, whatever its value: a null report time is a device not yet back. */
function hasMember(record: unknown, name: string): boolean {
  let value: unknown = record;
  for (const part of name.split('.')) {
    if (value === null || typeof value !== 'object' || !Object.hasOwn(value, part)) return false;
    value = (value as Record<string, unknown>)[part];
  }
  return true;
}
