// The record boundary, by resource: what each kind of record fleetctl reads carries, asked as
// `records.device.idOf(r)`. Every reader outside src/records/ goes through here (or the modules it names) and
// never names a member itself; the rules, and why, are in src/records/README.md.
import { hardwareIdOf, recordId } from './members.js';
import { eventIdOf, eventKey, eventTime } from './event-identity.js';
import { mediaDownloadOf } from './media-item.js';
import { vehicleMembers } from './device-vehicle.js';

/** A record's capabilities, when it lists them (the bundled document's `capabilities`); undefined when it says nothing. */
function capabilitiesOf(record: unknown): string[] | undefined {
  const listed: unknown = (record as { capabilities?: unknown } | null)?.capabilities;
  return Array.isArray(listed) ? listed.filter((c): c is string => typeof c === 'string') : undefined;
}

/** The identifier of a record of a noun (recordId), for resources with nothing more to say. */
const identified = (noun: string) => ({ idOf: (record: unknown): string | undefined => recordId(record, noun) });

export const records = {
  device: { ...identified('device'), hardwareIdOf, capabilitiesOf, vehiclesOf: vehicleMembers },
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
  fleet: identified('fleet'),
  vehicle: identified('vehicle'),
  organization: identified('organization'),
  journey: identified('journey'),
} as const;

export type Resource = keyof typeof records;

/** The identifier of a record of any resource; what a picker returns and tells lines apart by. */
export function idOf(resource: Resource, record: unknown): string | undefined {
  return records[resource].idOf(record);
}
