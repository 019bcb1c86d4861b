// The rows of `devices assign|unassign --from-file`: CSV (header row, any column order, quoting) or NDJSON; every
// bad row named by file and line, before anything is sent.
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/errors.js';
import { parseAssignmentRows } from '../../src/bulk/assignment-rows.js';
import { vehicleMembers } from '../../src/records/device-vehicle.js';

const V = '8c3f3c8e-1d2b-4f5a-9e7d-0a1b2c3d4e5f';
const D = '2E7F6C1F-1DAE-45ED-A366-ADAE182C1269';

function refusal(text: string, command: 'assign' | 'unassign' = 'assign'): string {
  try {
    parseAssignmentRows(text, command, 'rows.csv');
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return (error as Error).message;
  }
  throw new Error('accepted');
}

describe('parseAssignmentRows', () => {
  it('CSV with a header in any order, quoted fields, CRLF, blank and # lines skipped; ids made canonical', () => {
    const text = `vehicle_id,note,hardware_id\r\n${V},"a, b",HW-1\r\n\r\n# later\r\n"${V.toUpperCase()}","say ""hi""",${D}\r\n`;
    expect(parseAssignmentRows(text, 'assign', 'rows.csv')).toEqual([
      { line: 2, device: 'HW-1', vehicle: V },
      { line: 5, device: D.toLowerCase(), vehicle: V },
    ]);
  });

  it('NDJSON with device/vehicle or device_id/vehicle_id; unassign needs no vehicle', () => {
    expect(parseAssignmentRows(`{"device":"HW-1","vehicle":"${V}"}\n\n{"device_id":"HW-2","vehicle_id":"${V}"}\n`, 'assign', 'f')).toEqual([
      { line: 1, device: 'HW-1', vehicle: V },
      { line: 3, device: 'HW-2', vehicle: V },
    ]);
    expect(parseAssignmentRows('{"device":"HW-1"}\n', 'unassign', 'f')).toEqual([{ line: 1, device: 'HW-1', vehicle: undefined }]);
  });

  it.each([
    [`device,vehicle\nHW-1,${V}\nHW-2\n`, 'rows.csv line 3: 1 field, the header has 2'],
    [`id,vehicle\nHW-1,${V}\n`, 'rows.csv line 1: the header row names no device column (device, device_id, hardware_id): got "id,vehicle"'],
    [`device,vehicle\nHW-1,${V}\nHW-1,${V}\n`, 'rows.csv line 3: device "HW-1" is already on line 2: one row a device'],
    [`device,vehicle\n,${V}\n`, 'rows.csv line 2: no device: give its id (uuid) or its hardware id'],
    [`device,vehicle\n"HW-1,${V}\n`, 'rows.csv line 2: a quoted field is not closed'],
    [`{"device":"HW-1","vehicle":"${V}"}\n{"device":`, 'rows.csv line 2: not a JSON object (NDJSON: one object a line)'],
    [`{"device":7,"vehicle":"${V}"}\n`, 'rows.csv line 1: device must be a string'],
    ['device,vehicle\n', 'rows.csv has a header but no rows'],
    ['\n# nothing\n', 'rows.csv has no rows'],
  ])('refuses %j', (text, message) => {
    expect(refusal(text)).toBe(message);
  });
});

describe('vehicleMembers', () => {
  it('reads the vehicle from members named for one, whatever the service calls them', () => {
    expect(vehicleMembers({ id: D, vehicle_id: V, name: 'x' })).toEqual([V]);
    expect(vehicleMembers({ vehicle_ref: null, fleet_ref: V })).toEqual([null]);
    expect(vehicleMembers({ vehicle: { id: V.toUpperCase(), name: 'Van 3' } })).toEqual([V.toLowerCase()]);
    expect(vehicleMembers({ vehicle: null, vehicleName: 'Van 3' })).toEqual([null]);
    // what holds no vehicle id says nothing
    expect(vehicleMembers({ vehicle: { name: 'Van 3' }, vehicle_count: 2, vehicles: [V] })).toEqual([]);
  });
});
