// The second service's own records. The spec leaves every record's fields unshown; this service names them its
// own way (title, given_name, serial, firmware.version, observed_at ...), never as src/openapi/v1.json does.
// What a device can do is internal data, never a field of its record (there is no `capabilities`).

export type Command = 'reboot' | 'wake_up';

export interface Device {
  id: string;
  hardware_id: string;
  serial: string;
  label: string;
  firmware: { version: string; channel: string };
  vehicle_ref: string | null;
  fleet_ref: string;
  tenant_ref: string;
  reported_at: string;
  enrolled_on: string;
  power_source: string;
}

export interface Fleet { id: string; title: string; org: string; unit_total: number; opened_on: string; region: { code: string; tz: string } }

export interface Driver {
  id: string;
  given_name: string;
  family_name: string;
  contact: { mail: string | null; tel: string | null };
  org: string;
  fleet_ref: string;
  badge: string | null;
  /** A string, never a number, even when it is all digits (1815). */
  employee_id: string | null;
  active: boolean;
  registered_at: string;
  revised_at: string;
}

export interface TelematicsEvent {
  /** The composite id the spec describes (base64url of "hardware id|event id"): what GET /v1/events/{eventId} takes. */
  ref: string;
  /** The event's number on its device: 1, 2, 3 on every device (an id that repeats across devices). */
  id: number;
  device_hw: string;
  kinds: string[];
  groups: string[];
  occurred_at: string;
  crash: boolean;
  flagged: boolean;
  fleet_ref: string;
  vehicle_ref: string | null;
  place: { line: string; city: string };
  track: { lat: number; lon: number; at: string }[];
  velocity_kmh: number;
  attachments: string[];
}

export interface Media {
  media_ref: string;
  hw: string;
  kind: string;
  camera: string;
  bytes: number;
  captured_at: string;
  signed_url: { href: string; valid_until: string };
}

export interface ServiceState {
  rootOrg: string;
  childOrg: string;
  /** An organization outside the caller's tenant: any request for it is 403. */
  foreignOrg: string;
  fleets: Fleet[];
  devices: Device[];
  vehicles: string[];
  drivers: Driver[];
  events: TelematicsEvent[];
  media: Media[];
  /** Internal: what each device (by hardware id) can do. Records never say. */
  abilities: Map<string, Set<Command>>;
  lastReported: Map<string, Record<string, unknown>>;
  lastPosition: Map<string, Record<string, unknown>>;
}

/** A deterministic uuid (version 4 layout) for seed records: kind picks a block, n the record. */
export function seedUuid(kind: number, n: number): string {
  return `${kind.toString(16).padStart(8, '0')}-5e2c-4d00-9a00-${n.toString(16).padStart(12, '0')}`;
}

/** The composite event id of the spec: base64url of the hardware id and the event id joined by a separator. */
export function eventRef(hardwareId: string, eventId: string): string {
  return Buffer.from(`${hardwareId}|${eventId}`).toString('base64url');
}

export const BIG_FLEET_SIZE = 120;

export function seedState(now = Date.now()): ServiceState {
  const at = (minutesAgo: number) => new Date(now - minutesAgo * 60_000).toISOString().replace(/\.\d{3}Z$/, 'Z');
  const rootOrg = seedUuid(0xa1, 1);
  const childOrg = seedUuid(0xa1, 2);
  const foreignOrg = seedUuid(0xa1, 99);
  const fleets: Fleet[] = [
    { id: seedUuid(0xf1, 1), title: 'Northern haulage', org: rootOrg, unit_total: 3, opened_on: '2021-03-01', region: { code: 'NO', tz: 'Europe/Oslo' } },
    { id: seedUuid(0xf1, 2), title: 'City couriers', org: rootOrg, unit_total: BIG_FLEET_SIZE, opened_on: '2022-07-15', region: { code: 'DE', tz: 'Europe/Berlin' } },
    { id: seedUuid(0xf1, 3), title: 'Subsidiary vans', org: childOrg, unit_total: 1, opened_on: '2023-01-09', region: { code: 'FR', tz: 'Europe/Paris' } },
  ];
  const vehicles = Array.from({ length: 5 }, (_, i) => seedUuid(0x7e, i + 1));
  const devices: Device[] = [];
  const abilities = new Map<string, Set<Command>>();
  const addDevice = (n: number, fleet: Fleet, vehicle: string | null) => {
    const hw = `TLM-${String(n).padStart(5, '0')}`;
    devices.push({
      id: seedUuid(0xde, n),
      hardware_id: hw,
      serial: `SR${(778000 + n).toString(36).toUpperCase()}`,
      label: `Unit ${n} of ${fleet.title}`,
      firmware: { version: `4.${n % 7}.${n % 3}`, channel: n % 2 ? 'stable' : 'beta' },
      vehicle_ref: vehicle,
      fleet_ref: fleet.id,
      tenant_ref: fleet.org,
      reported_at: at(n),
      enrolled_on: '2023-05-04',
      power_source: n % 3 ? 'obd' : 'hardwired',
    });
    abilities.set(hw, new Set<Command>(['reboot', 'wake_up']));
  };
  addDevice(1, fleets[0]!, vehicles[0]!);
  addDevice(2, fleets[0]!, null);
  addDevice(3, fleets[0]!, vehicles[1]!);
  for (let i = 0; i < BIG_FLEET_SIZE; i++) addDevice(100 + i, fleets[1]!, null);
  addDevice(900, fleets[2]!, vehicles[4]!);
  // decided by the service's own data: TLM-00002 cannot wake up, TLM-00003 cannot reboot
  abilities.get('TLM-00002')!.delete('wake_up');
  abilities.get('TLM-00003')!.delete('reboot');

  const drivers: Driver[] = [
    driver(1, 'Ingrid', 'Solberg', fleets[0]!, 'ingrid@haulage.example', at(4000)),
    driver(2, 'Tomasz', 'Nowak', fleets[1]!, null, at(3000)),
    driver(3, 'Amélie', 'Durand', fleets[2]!, 'amelie@vans.example', at(2000)),
  ];
  const events: TelematicsEvent[] = [];
  const media: Media[] = [];
  for (const [i, dev] of devices.slice(0, 3).entries()) {
    for (let k = 0; k < 3; k++) {
      const eventId = `ev${i}${k}`;
      const ref = eventRef(dev.hardware_id, eventId);
      const mediaRef = `md-${i}${k}`;
      events.push({
        ref,
        id: k + 1,
        device_hw: dev.hardware_id,
        kinds: k === 0 ? ['hard_brake'] : k === 1 ? ['collision', 'hard_brake'] : ['idle'],
        groups: k === 1 ? ['safety', 'accident'] : ['driving'],
        occurred_at: at(60 * (k + 1) + i),
        crash: k === 1,
        flagged: k !== 2,
        fleet_ref: dev.fleet_ref,
        vehicle_ref: dev.vehicle_ref,
        place: { line: `Storgata ${10 + k}`, city: 'Tromsø' },
        track: [{ lat: 69.65 + k / 100, lon: 18.95, at: at(60 * (k + 1) + i) }],
        velocity_kmh: 40 + k,
        attachments: [mediaRef],
      });
      media.push({
        media_ref: mediaRef,
        hw: dev.hardware_id,
        kind: 'video/mp4',
        camera: k % 2 ? 'cabin' : 'road',
        bytes: 1_048_576 + k,
        captured_at: at(60 * (k + 1) + i),
        signed_url: { href: `https://media.second-service.test/${mediaRef}.mp4?sig=abc%2Bdef&exp=1`, valid_until: new Date(now + 3_600_000).toISOString() },
      });
    }
  }
  const lastReported = new Map<string, Record<string, unknown>>();
  const lastPosition = new Map<string, Record<string, unknown>>();
  // TLM-00002 never reported and has no live position: both are 404
  for (const dev of devices.filter((d) => d.hardware_id !== 'TLM-00002')) {
    lastReported.set(dev.hardware_id, {
      hw: dev.hardware_id,
      observed_at: at(2),
      ignition: 'on',
      odo_m: 123_456_789,
      battery_mv: 12_600,
      speed: { value: 52.5, unit: 'km/h' },
      coords: [69.6492, 18.9553],
    });
    lastPosition.set(dev.hardware_id, { hw: dev.hardware_id, fix: { lat: 69.6492, lon: 18.9553 }, bearing_deg: 270, kmh: 48, fixed_at: at(1), valid: true });
  }
  return { rootOrg, childOrg, foreignOrg, fleets, devices, vehicles, drivers, events, media, abilities, lastReported, lastPosition };

  function driver(n: number, given: string, family: string, fleet: Fleet, mail: string | null, when: string): Driver {
    return {
      id: seedUuid(0xd7, n),
      given_name: given,
      family_name: family,
      contact: { mail, tel: mail ? null : '+47 400 00 000' },
      org: fleet.org,
      fleet_ref: fleet.id,
      badge: `B-${n}`,
      employee_id: `E-${n}`,
      active: true,
      registered_at: when,
      revised_at: when,
    };
  }
}
