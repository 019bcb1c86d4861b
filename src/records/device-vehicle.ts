// The vehicle a device record names. The spec shows no device field: vehicle_id in one service, vehicle_ref or
// vehicle: {id, name} in another; the members named for a vehicle say it (the assign body's own member is
// records/assignment.ts, read from the document).
import { isUuid } from '../shared/uuid.js';

/**
 * What a record says of its vehicle: the values of its members named for a vehicle that hold a uuid, null, or an
 * object whose id is a uuid (the spec shows no device field: vehicle_id in one service, vehicle_ref or
 * vehicle: {id, name} in another). Empty when none says.
 */
export function vehicleMembers(record: unknown): (string | null)[] {
  if (record === null || typeof record !== 'object') return [];
  const vehicleOf = (value: unknown): string | null | undefined => {
    if (value === null) return null;
    if (typeof value === 'string') return isUuid(value) ? value.toLowerCase() : undefined;
    // a nested vehicle is read by its id, one level down only
    if (typeof value === 'object' && !Array.isArray(value)) {
      const id = (value as { id?: unknown }).id;
      return typeof id === 'string' && isUuid(id) ? id.toLowerCase() : undefined;
    }
    return undefined;
  };
  return Object.entries(record as Record<string, unknown>)
    .filter(([name]) => /vehicle/i.test(name))
    .map(([, value]) => vehicleOf(value))
    .filter((value): value is string | null => value !== undefined);
}
