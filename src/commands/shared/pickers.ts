// What each resource looks like in a picker, and which of the API's filters narrow it.
import type { Deps } from '../../factory.js';
import { safeText } from '../../shared/terminal-text.js';
import { carries, recordCells } from '../../output/record-fields.js';
import { records, type Resource } from '../../records/resources.js';
import { RECORD_VIEWS } from '../../records/views.js';
import { InvalidResponseError } from '../../errors.js';
import { dateQuery, type DateWindow } from './dates.js';
import { checkFromList, givenOrPicked, pickable, pickFromList, type ListCheck, type ListPick, type PickerDeps } from './pick-list.js';
import { requireNonEmpty, requireUuid } from './validate.js';
import { requireHardwareId } from '../../shared/hardware-id.js';
import type { Schema } from '../../openapi/operation-types.js';

// Hardware ids are free-form; one typed whole is a single word with a digit in it (HW-000123, 359881234567890).
const HARDWARE_ID_LIKE = /^\S*\d\S*$/;
// spec: GET /v1/events needs a narrowing filter and a date window: the picked device and this many days.
const EVENT_DAYS = 30;

export const HARDWARE_ID_ARGUMENT = pickable('hardware id of the device');

// Each line is built by the tables' rule: the view's picker fields (records/views.ts) when the records carry them,
// else the records' own.
const deviceCells = (d: unknown) => recordCells(d, RECORD_VIEWS.device.picker);

export function pickDevice(deps: PickerDeps, message = 'Device'): Promise<unknown> {
  return pickFromList(deps, {
    message: `${message} (type a hardware id or name)`,
    noun: 'device',
    list: (api, paging, term) => api.list('listDevices', { query: { hardware_id: term } }, paging),
    filters: (term) => HARDWARE_ID_LIKE.test(term),
    cells: deviceCells,
    key: (d) => records.device.idOf(d) ?? records.device.hardwareIdOf(d) ?? JSON.stringify(d),
  });
}

/** The id of a picked device record, whatever the service calls it. */
export function pickedDeviceId(device: unknown): string {
  return requirePickedId(records.device.idOf(device), 'device');
}

/** The hardware id of a picked device record, whatever the service calls it. */
function pickedHardwareId(device: unknown): string {
  const id = records.device.hardwareIdOf(device);
  if (id === undefined) throw new InvalidResponseError('the device picked carries no hardware id', 'give the hardware id as an argument');
  return id;
}

/** A picked record's id, or a clear refusal when it carries none: the command needs the id. */
function requirePickedId(id: string | undefined, noun: string): string {
  if (id === undefined) throw new InvalidResponseError(`the ${noun} picked carries no id`, `give the ${noun} id as an argument`);
  return id;
}

/** A set of devices the operator chose to start from (a selection): listed with every device ticked. */
export interface StartingSet {
  /** As the prompt names it: `--where "fleet:North stale"`, `@stale-north`. */
  name: string;
  list: ListCheck<unknown>['list'];
}

/** The devices ticked, with the capabilities their list showed: the run counts them as checked. */
export interface PickedDevices {
  hardwareIds: string[];
  capabilities: Map<string, readonly string[]>;
}

/** Devices for a command, ticked in one list: those without its capability are shown, and cannot be ticked. */
export async function pickDevicesFor(deps: PickerDeps, capability: Schema<'DeviceCapability'>, verb: string, from?: StartingSet): Promise<PickedDevices> {
  const devices = await checkFromList(deps, {
    message: from ? `Devices to ${verb} (${from.name})` : `Devices to ${verb}`,
    noun: 'device',
    list: from?.list ?? ((api, paging) => api.list('listDevices', {}, paging)),
    ...(from ? { ticked: true, none: { message: `${from.name} selects no device`, hint: 'start from another selection, or name the devices' } } : {}),
    cells: deviceCells,
    // a record that says nothing of capabilities is not shown as lacking one: the service decides (422)
    unavailable: (d) => (records.device.capabilitiesOf(d)?.includes(capability) === false ? `(no ${capability})` : undefined),
  });
  const capabilities = new Map<string, readonly string[]>();
  const hardwareIds = devices.map(pickedHardwareId);
  for (const [i, d] of devices.entries()) {
    const listed = records.device.capabilitiesOf(d);
    if (listed !== undefined) capabilities.set(hardwareIds[i]!, listed);
  }
  return { hardwareIds, capabilities };
}

/** The id of a record picked from a list (records are told apart by their id, whatever the service calls it). */
async function pickId(deps: PickerDeps, resource: Resource, spec: Omit<ListPick<unknown>, 'key'>): Promise<string> {
  const idOf = records[resource].idOf;
  return requirePickedId(idOf(await pickFromList(deps, { ...spec, key: (item) => idOf(item) ?? JSON.stringify(item) })), spec.noun);
}

export function pickDriver(deps: PickerDeps): Promise<string> {
  return pickId(deps, 'driver', {
    message: 'Driver (type a name)',
    noun: 'driver',
    list: (api, paging) => api.list('listDrivers', {}, paging),
    // a name typed whole (first and last) is found: the two read as one cell
    cells: (d) => {
      const [first = '', last = '', ...rest] = recordCells(d, RECORD_VIEWS.driver.picker);
      const [firstName, lastName] = RECORD_VIEWS.driver.picker;
      return carries(d, firstName) && carries(d, lastName) ? [[first, last].filter(Boolean).join(' '), ...rest] : [first, last, ...rest];
    },
  });
}

export function pickFleet(deps: PickerDeps): Promise<string> {
  return pickId(deps, 'fleet', {
    message: 'Fleet (type a name)',
    noun: 'fleet',
    list: (api, paging) => api.list('listFleets', {}, paging),
    cells: (f) => recordCells(f, RECORD_VIEWS.fleet.picker),
  });
}

export function pickOrganization(deps: PickerDeps): Promise<string> {
  return pickId(deps, 'organization', {
    message: 'Organization (type a name)',
    noun: 'organization',
    list: (api, paging) => api.list('listOrganizations', {}, paging),
    cells: (o) => recordCells(o, RECORD_VIEWS.organization.picker),
  });
}

export function pickVehicle(deps: PickerDeps): Promise<string> {
  return pickId(deps, 'vehicle', {
    message: 'Vehicle (type a name or plate)',
    noun: 'vehicle',
    list: (api, paging) => api.list('listVehicles', {}, paging),
    cells: (v) => recordCells(v, RECORD_VIEWS.vehicle.picker),
  });
}

/** An event of a device picked first: the events search needs a device (or fleet) and a date window. */
export async function pickEvent(deps: PickerDeps & Pick<Deps, 'clock'>): Promise<string> {
  const now = deps.clock.now();
  const window = { dateFrom: new Date(now.getTime() - EVENT_DAYS * 86_400_000).toISOString(), dateTo: now.toISOString() };
  const device = pickedHardwareId(await pickDevice(deps, 'Device of the event'));
  const hardwareId = safeText(device);
  const event = await pickFromList(deps, {
    message: `Event of ${hardwareId}, last ${EVENT_DAYS} days (type a type or date)`,
    noun: 'event',
    list: (api, paging) => api.list('searchEvents', { query: { hardware_id: device, ...dateQuery(window) } }, paging),
    none: {
      message: `device ${hardwareId} has no events in the last ${EVENT_DAYS} days`,
      hint: `give the event id; older ones: fleetctl events search --hardware-id ${hardwareId} --since 90d`,
    },
    cells: (e) => recordCells(e, RECORD_VIEWS.event.picker),
    // unique across devices: the composite id the spec describes, not a per-device event id
    key: (e) => records.event.keyOf(e, device),
  });
  return requirePickedId(records.event.idOf(event, device), 'event');
}

/** A media item of a device, within the command's own --from/--to. */
export function pickMedia(deps: PickerDeps, hardwareId: string, window: DateWindow): Promise<string> {
  const shown = safeText(hardwareId);
  return pickId(deps, 'media', {
    message: `Media of ${shown} (type a file name or date)`,
    noun: 'media item',
    list: (api, paging) => api.list('listDeviceMedia', { pathParams: { hardwareId }, query: dateQuery(window) }, paging),
    none: {
      message: `device ${shown} has no media${window.dateFrom || window.dateTo ? ' in that window' : ''}`,
      hint: 'widen --from/--to, or leave them out',
    },
    cells: (m) => recordCells(m, RECORD_VIEWS.deviceMedia.picker),
  });
}

/** A hardware id argument: as given, or the device picked on a terminal. */
export async function hardwareIdArgument(deps: PickerDeps, value: string | undefined): Promise<string> {
  const given = await givenOrPicked(deps.io, value, 'hardware-id', async () => pickedHardwareId(await pickDevice(deps)));
  return requireHardwareId(given, 'hardware id');
}

/** A uuid argument: as given (and checked), or picked on a terminal. */
export async function uuidArgument(deps: PickerDeps, value: string | undefined, name: string, what: string, pick: (deps: PickerDeps) => Promise<string>): Promise<string> {
  return requireUuid(await givenOrPicked(deps.io, value, name, () => pick(deps)), what);
}

/** An event id argument: as given, or the event picked on a terminal (a device first, then one of its events). */
export async function eventIdArgument(deps: PickerDeps & Pick<Deps, 'clock'>, value: string | undefined): Promise<string> {
  return requireNonEmpty(await givenOrPicked(deps.io, value, 'event-id', () => pickEvent(deps)), 'event id');
}
