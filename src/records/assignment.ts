// The spec shows the assign-device command's body as "fields not shown": the member that carries the vehicle is
// read from the document in use (the service's own, the bundled one only when none is served), never assumed.
import { requestBodySchema, type OpenApiDoc } from '../openapi/document-shapes.js';

/** What the bundled document calls it, and the answer when a document declares no body members. */
export const BUNDLED_VEHICLE_MEMBER = 'vehicle_id';

/**
 * The body member of PUT /v1/devices/{id}/assignment that names the vehicle: the one member named for a vehicle
 * (vehicle_id, vehicleId, vehicle ...); among several, the one the schema requires; a body of a single member is
 * that member whatever its name.
 */
export function assignVehicleMember(doc: OpenApiDoc): string {
  const schema = requestBodySchema(doc, 'PUT', '/v1/devices/{id}/assignment');
  const properties = schema?.properties;
  const names = properties && typeof properties === 'object' ? Object.keys(properties) : [];
  const required = Array.isArray(schema?.required) ? (schema.required as unknown[]) : [];
  const forVehicle = names.filter((name) => /vehicle/i.test(name));
  if (forVehicle.length === 1) return forVehicle[0]!;
  if (forVehicle.length > 1) {
    const requiredOnes = forVehicle.filter((name) => required.includes(name));
    return requiredOnes.length === 1 ? requiredOnes[0]! : forVehicle.includes(BUNDLED_VEHICLE_MEMBER) ? BUNDLED_VEHICLE_MEMBER : forVehicle[0]!;
  }
  return names.length === 1 ? names[0]! : BUNDLED_VEHICLE_MEMBER;
}
