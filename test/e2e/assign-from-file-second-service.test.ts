// Issue 25, must-show 4 and 6: `devices assign|unassign --from-file` against the second service double, whose
// device records name the vehicle vehicle_ref and its assign command vehicleId (not vehicle_id): the current
// assignment is still read from the record, the vehicle sent in the member its document names, an assignment in
// place is unchanged and not sent, and the recent run shows in `fleetctl status`.
import { describe, expect, it } from 'vitest';
import { seedUuid, type SecondService } from '../support/second-service.js';
import { report, useSecondHarness, type SecondHarness } from '../support/second-service/harness.js';

let h: SecondHarness;
let svc: SecondService;
useSecondHarness((started) => {
  h = started;
  svc = started.svc;
});

const [VEHICLE_1, VEHICLE_3] = [seedUuid(0x7e, 1), seedUuid(0x7e, 3)];
const writes = (from: number) => svc.requests.slice(from).filter((q) => q.path.includes('/assignment')).map((q) => `${q.method} ${q.path} ${q.status}`);

describe('bulk assignment against the second service', { timeout: 120_000 }, () => {
  it('assigns by hardware id and by id; the device already on its vehicle is unchanged and nothing is sent for it', async () => {
    const from = svc.requests.length;
    const csv = `device,vehicle\nTLM-00001,${VEHICLE_1}\nTLM-00002,${VEHICLE_3}\n${seedUuid(0xde, 100)},${VEHICLE_3}\n`;
    const args = ['devices', 'assign', '--from-file', '-', '--yes', '-o', 'ndjson'];
    const r = await h.cli(args, { input: csv });
    expect(r.code, report(args, r)).toBe(0);
    const results = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as { device: string; status: string });
    expect(results.map((x) => [x.device, x.status]).sort()).toEqual([
      ['TLM-00001', 'unchanged'],
      ['TLM-00002', 'assigned'],
      [seedUuid(0xde, 100), 'assigned'],
    ].sort());
    expect(writes(from).sort()).toEqual([`PUT /v1/devices/${seedUuid(0xde, 2)}/assignment 200`, `PUT /v1/devices/${seedUuid(0xde, 100)}/assignment 200`].sort());
    expect(svc.state.devices.find((d) => d.hardware_id === 'TLM-00002')!.vehicle_ref).toBe(VEHICLE_3);
    // each PUT carried the vehicle in the member this service's document names (vehicleId)
    const bodies = svc.requests.slice(from).filter((q) => q.method === 'PUT' && q.path.endsWith('/assignment')).map((q) => JSON.parse(String(q.body)));
    expect(bodies).toEqual([{ vehicleId: VEHICLE_3 }, { vehicleId: VEHICLE_3 }]);
  });

  it('unassign: the free device is unchanged, the assigned one sent a DELETE; status lists both runs', async () => {
    const from = svc.requests.length;
    const r = await h.cli(['devices', 'unassign', '--from-file', '-', '--yes', '-o', 'json'], { input: '{"device":"TLM-00002"}\n{"device":"TLM-00100"}\n{"device":"TLM-00101"}\n' });
    expect(r.code, r.stderr).toBe(0);
    expect((JSON.parse(r.stdout) as { status: string }[]).map((x) => x.status)).toEqual(['unassigned', 'unassigned', 'unchanged']);
    expect(writes(from).length).toBe(2);
    const status = await h.cli(['status', '-o', 'json']);
    expect(status.code, status.stderr).toBe(0);
    const runs = JSON.parse(status.stdout).commands.runs as { command: string; targets: number; results: Record<string, number> }[];
    expect(runs.map((x) => [x.command, x.targets, x.results])).toEqual([
      ['assign', 3, { unchanged: 1, assigned: 2 }],
      ['unassign', 3, { unassigned: 2, unchanged: 1 }],
    ]);
  });

  it('a vehicle outside the tenant fails that device alone: exit 10', async () => {
    const csv = `device,vehicle\nTLM-00101,${seedUuid(0x7e, 99)}\nTLM-00102,${VEHICLE_3}\n`;
    const r = await h.cli(['devices', 'assign', '--from-file', '-', '--yes', '-o', 'json'], { input: csv });
    expect(r.code).toBe(10);
    expect((JSON.parse(r.stdout) as { status: string; http_status: number | null }[]).map((x) => [x.status, x.http_status])).toEqual([['not_found', 404], ['assigned', 200]]);
  });
});
