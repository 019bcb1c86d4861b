// The record boundary, by resource: what each kind of record fleetctl reads carries, asked as
// `records.device.idOf(r)`. Every reader outside src/records/ goes through here (or the modules it names) and
// never names a member itself; the rules, and why, are in src/records/README.md.
import { hardwareIdOf, recordId } from './members.js';
import { eventIdOf, eventKey, eventTime } from './event-identity.js';
import { mediaDownloadOf } from './media-item.js';
import { vehicleMembers } from './device-vehicle.js';
import { referenceTo } from './references.js';

/** The capability names fleetctl sends commands for, as the spec's error code and scopes name them. */
const COMMAND_CAPABILITIES: readonly string[] = ['reboot', 'wake_up'];

/**
 * A record's capabilities when they are in the form fleetctl reads (the bundled document's `capabilities`): an array
 * of names in which a command it sends (reboot, wake_up) appears, or an empty array (the device can do nothing).
 * Anything else (names of another vocabulary, objects, a string, a number, no member) is undefined: not known, so
 * no command is withheld for it and the service decides (spec: 422 device.capability_missing).
 */
function capabilitiesOf(record: unknown): readonly string[] | undefined {
  const listed: unknown = (record as { capabilities?: unknown } | null)?.capabilities;
  if (!Array.isArray(listed) || !listed.every((c): c is string => typeof c === 'string')) return undefined;
  return listed.length === 0 || listed.some((c) => COMMAND_CAPABILITIES.includes(c)) ? listed : undefined;
}

/**
 * Whether a device can do `capability` (the selection language's has:): yes when its capabilities are a list of
 * names holding it, whatever vocabulary the rest is in; no when the list is one fleetctl reads (capabilitiesOf) and
 * lacks it; otherwise unknown, never a no that would leave the device out on a guess.
 */
function hasCapability(record: unknown, capability: string): boolean | undefined {
  const listed: unknown = (record as { capabilities?: unknown } | null)?.capabilities;
  if (Array.isArray(listed) && listed.includes(capability)) return true;
  return capabilitiesOf(record)?.includes(capability);
}

/** The identifier of a record of a noun (recordId), for resources with nothing more to say. */
const identified = (noun: string) => ({ idOf: (record: unknown): string | undefined => recordId(record, noun) });

export const records = {
  device: { ...identified('device'), hardwareIdOf, capabilitiesOf, hasCapability, vehiclesOf: vehicleMembers },
  event: {
    /** Its composite id (what `events get` takes), else its own id. */
    idOf: eventIdOf,
    /** Unique across a list of many devices' events: --follow's dedupe, pickers. */
    keyOf: eventKey,
    timeOf: eventTime,
    hardwareIdOf,
  },
  media: { ...identified('media'), downloadOf: mediaDownloadOf },
  driver: identified('driver'),
  fleet: { ...identified('fleet'), organizationOf: (record: unknown) => referenceTo(record, 'organization') },
  vehicle: identified('vehicle'),
  organization: identified('organization'),
  journey: identified('journey'),
} as const;

export type Resource = keyof typeof records;

/** The identifier of a record of any resource; what a picker returns and tells lines apart by. */
export function idOf(resource: Resource, record: unknown): string | undefined {
  return records[resource].idOf(record);
}
