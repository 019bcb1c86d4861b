// Word lists the seed draws from. Plain data: changing an entry changes every seeded world.

export const ORGANIZATION_NAMES = {
  root: 'Acme Logistics',
  north: 'Acme Logistics North',
  south: 'Acme Logistics South',
  northDepot: 'Acme North Depot',
  unrelated: 'Globex Haulage',
} as const;

export const FLEET_KINDS = ['Delivery', 'Long Haul', 'Service', 'Regional', 'Refrigerated', 'Construction'];

export const VEHICLE_MODELS: readonly { make: string; model: string; kind: string }[] = [
  { make: 'Ford', model: 'Transit', kind: 'Van' },
  { make: 'Mercedes-Benz', model: 'Sprinter', kind: 'Van' },
  { make: 'Volvo', model: 'FH16', kind: 'Truck' },
  { make: 'Scania', model: 'R450', kind: 'Truck' },
  { make: 'Toyota', model: 'Hilux', kind: 'Pickup' },
  { make: 'Iveco', model: 'Daily', kind: 'Van' },
  { make: 'MAN', model: 'TGX', kind: 'Truck' },
  { make: 'Renault', model: 'Master', kind: 'Van' },
];

export const DEVICE_MODELS = ['FT-200', 'FT-300', 'FT-310 Dashcam', 'FT-400 Pro'];
export const FIRMWARE_VERSIONS = ['3.2.1', '3.4.0', '4.0.2', '4.1.0'];

export const FIRST_NAMES = [
  'Ava', 'Ben', 'Chloe', 'Daniel', 'Elena', 'Farid', 'Grace', 'Hugo', 'Ines', 'Jonas',
  'Kira', 'Liam', 'Maya', 'Noah', 'Olga', 'Pablo', 'Quinn', 'Rosa', 'Sami', 'Tara',
];
export const LAST_NAMES = [
  'Andersen', 'Bauer', 'Costa', 'Dubois', 'Evans', 'Fischer', 'Garcia', 'Hansen', 'Ito', 'Jansen',
  'Kowalski', 'Lopez', 'Moreau', 'Novak', 'Okafor', 'Petrov', 'Rossi', 'Silva', 'Tanaka', 'Weber',
];

export const STREETS = ['Harbour Road', 'Station Street', 'Industrial Way', 'Ring Road', 'Market Square', 'Mill Lane'];
export const CITIES = ['Springfield', 'Riverton', 'Lakeside', 'Fairview', 'Greenhill'];

/** Event types with the category each belongs to. */
export const EVENT_TYPES: readonly { type: string; category: string }[] = [
  { type: 'harsh_braking', category: 'driving' },
  { type: 'harsh_acceleration', category: 'driving' },
  { type: 'harsh_cornering', category: 'driving' },
  { type: 'speeding', category: 'driving' },
  { type: 'collision', category: 'safety' },
  { type: 'distraction', category: 'safety' },
  { type: 'idling', category: 'efficiency' },
  { type: 'geofence_exit', category: 'location' },
  { type: 'tampering', category: 'system' },
];

export const LETTERS = 'ABCDEFGHJKLMNPRSTUVWXYZ';
export const VIN_ALPHABET = 'ABCDEFGHJKLMNPRSTUVWXYZ0123456789';
