// Seeded drivers: three per fleet, deterministic for the seed.
import { prngFor } from '../common/prng.js';
import { FIRST_NAMES, LAST_NAMES } from '../common/catalog.js';
import type { DriverRecord, FleetRecord } from '../common/records.js';

const DRIVERS_PER_FLEET = 3;
const SEED_EPOCH_MS = Date.UTC(2024, 0, 1);

export function generateDrivers(seed: number, fleets: readonly FleetRecord[]): DriverRecord[] {
  const rng = prngFor(seed, 'drivers');
  const drivers: DriverRecord[] = [];
  for (const fleet of fleets) {
    for (let n = 0; n < DRIVERS_PER_FLEET; n++) {
      const seq = drivers.length;
      const first = rng.pick(FIRST_NAMES);
      const last = rng.pick(LAST_NAMES);
      const at = new Date(SEED_EPOCH_MS + seq * 3_600_000).toISOString();
      const hasContact = rng.chance(0.8);
      drivers.push({
        seq,
        id: rng.uuid(),
        organization_id: fleet.organization_id,
        fleet_id: fleet.id,
        first_name: first,
        last_name: last,
        email: hasContact ? `${first}.${last}.${seq + 1}@drivers.example.com`.toLowerCase() : null,
        phone: hasContact ? `+1555${String(rng.int(0, 9_999_999)).padStart(7, '0')}` : null,
        license_number: `DL-${rng.int(100_000, 999_999)}`,
        employee_id: `E${String(seq + 1).padStart(5, '0')}`,
        status: rng.chance(0.9) ? 'active' : 'inactive',
        created_at: at,
        updated_at: at,
      });
    }
  }
  return drivers;
}
