// Ids of the sandbox's seeded world (default seed), for the first example of a verb: the simplest real use, a
// plain command with a real id. They run as written against `fleetctl sandbox` (its export lines pasted), and
// the examples test runs them so; a change of the seed shows up there.
export const SANDBOX_IDS = {
  /** HW-000001: reports, has both capabilities, a vehicle, events and media. */
  hardwareId: 'HW-000001',
  deviceId: '2e7f6c1f-1dae-45ed-a366-adae182c1269',
  /** The vehicle of HW-000001. */
  vehicleId: '82b9c255-2083-43ab-809d-e8eccc0da9f4',
  /** The fleet of HW-000001. */
  fleetId: 'a82784ac-01c6-42cf-869c-62428c14904b',
  /** The root organization, sandbox-admin's own. */
  organizationId: '0aa6a1c2-de0e-40a9-adff-8a4f5a043fc9',
  driverId: 'f1ec899f-4264-4a01-955c-2e75cb6054fd',
  /** An event of HW-000001. */
  eventId: 'SFctMDAwMDAxfmI3YmY4MzdjLTE4MzAtNGEwYi04ZjQ4LTg1YzZiNjYxYzhlZQ',
} as const;
