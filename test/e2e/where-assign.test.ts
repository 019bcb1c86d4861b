// Issue 37, point 2 for assignments: `devices assign|unassign --where EXPR` (and `@NAME` as the device) go to exactly
// the devices the expression selects, the journal keeps the expression beside the targets it resolved to, and a
// resume takes those targets, never the expression again; against the sandbox and against the second service
// double, whose records name the vehicle vehicle_ref and whose assign command names it vehicleId.
import { readFileSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type SandboxHarness } from './harness.js';
import { journalPathOf } from '../../src/bulk/journal.js';
import { seedUuid } from '../support/second-service.js';
import { report, startSecondHarness, type SecondHarness } from '../support/second-service/harness.js';

type Device = Record<string, unknown> & { id: string; hardware_id: string };
type Row = { device: string; status: string };

const runIdOf = (stderr: string) => /run (\d{8}T\d{6}Z-[0-9a-f]{6})/.exec(stderr)![1]!;
const rows = (stdout: string) => (JSON.parse(stdout) as Row[]).map((r) => [r.device, r.status]).sort();

describe('devices assign|unassign --where against the sandbox', { timeout: 120_000 }, () => {
  let h: SandboxHarness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.close());

  const devices = async () => JSON.parse((await h.cli(['devices', 'list', '--all', '-o', 'json'])).stdout) as Device[];
  const written = async (operation: string) =>
    ((await (await fetch(`${h.sandbox.baseUrl}/_sandbox/requests?operation_id=${operation}`)).json()) as { path: string; status: number }[]).map((q) => q.path);

  it('assigns the devices it selects, once each, to --vehicle-id; a dry run says how many and the first, and sends nothing', async () => {
    const fleets = JSON.parse((await h.cli(['fleets', 'list', '--all', '-o', 'json'])).stdout) as { id: string; name: string }[];
    const vehicle = (JSON.parse((await h.cli(['vehicles', 'list', '--limit', '1', '-o', 'json'])).stdout) as { id: string }[])[0]!.id;
    const fleet = fleets[1]!;
    const expression = `fleet:"${fleet.name}" -never-reported`;
    const before = await devices();
    const selected = before.filter((d) => d.fleet_id === fleet.id && typeof d.last_seen_at === 'string');
    expect(selected.length).toBeGreaterThan(1);
    const writesBefore = (await written('assignDevice')).length;
    const dry = await h.cli(['devices', 'assign', '--where', expression, '--vehicle-id', vehicle, '--dry-run', '-o', 'json']);
    expect(dry.code, report(['dry-run'], dry)).toBe(0);
    const first = selected.map((d) => d.hardware_id)[0]!;
    expect(dry.stderr).toContain(`selected ${selected.length} devices (${first}, `);
    const fate = (d: Device, done: string) => [d.hardware_id, d.vehicle_id === vehicle ? 'unchanged' : done];
    expect(rows(dry.stdout)).toEqual(selected.map((d) => fate(d, 'would_assign')).sort());
    expect((await written('assignDevice')).length).toBe(writesBefore);
    const r = await h.cli(['devices', 'assign', '--where', expression, '--vehicle-id', vehicle, '--yes', '-o', 'json']);
    expect(r.code, report(['assign --where'], r)).toBe(0);
    expect(rows(r.stdout)).toEqual(selected.map((d) => fate(d, 'assigned')).sort());
    // the request log: one PUT for each selected device not already on the vehicle, and none for any other
    const sent = (await written('assignDevice')).slice(writesBefore).sort();
    expect(sent).toEqual(selected.filter((d) => d.vehicle_id !== vehicle).map((d) => `/v1/devices/${d.id}/assignment`).sort());
    const header = JSON.parse(readFileSync(journalPathOf(h.configDir, runIdOf(r.stderr), undefined), 'utf8').split('\n')[0]!);
    expect(header).toMatchObject({ command: 'assign', where: expression });
    expect([...header.targets].sort()).toEqual(selected.map((d) => d.hardware_id).sort());
    expect(new Set(Object.values(header.vehicles))).toEqual(new Set([vehicle]));
  });

  it('unassign @NAME: the journal keeps the saved name and its targets; a resume finishes those, though the selection now selects none', async () => {
    const vehicle = (JSON.parse((await h.cli(['vehicles', 'list', '--limit', '1', '-o', 'json'])).stdout) as { id: string }[])[0]!.id;
    const on = (await devices()).filter((d) => d.vehicle_id === vehicle).map((d) => d.hardware_id).sort();
    expect(on.length).toBeGreaterThan(2);
    expect((await h.cli(['selection', 'save', 'on-first-vehicle', '--where', `vehicle_id:${vehicle}`])).code).toBe(0);
    const r = await h.cli(['devices', 'unassign', '@on-first-vehicle', '--yes', '-o', 'json']);
    expect(r.code, report(['unassign @on-first-vehicle'], r)).toBe(0);
    expect(rows(r.stdout)).toEqual(on.map((id) => [id, 'unassigned']));
    const runId = runIdOf(r.stderr);
    const file = journalPathOf(h.configDir, runId, undefined);
    const lines = readFileSync(file, 'utf8').trim().split('\n');
    expect(JSON.parse(lines[0]!)).toMatchObject({ command: 'unassign', where: '@on-first-vehicle', targets: expect.arrayContaining(on) });
    // as if interrupted after its first device: the others are finished from the journal's targets
    const first = lines.findIndex((line) => line.includes('"type":"result"'));
    writeFileSync(file, `${lines.filter((line, index) => !line.includes('"type":"result"') || index === first).join('\n')}\n`);
    const deletes = (await written('unassignDevice')).length;
    const resumed = await h.cli(['devices', 'unassign', '--resume', runId, '--yes', '-o', 'json']);
    expect(resumed.code, report(['--resume'], resumed)).toBe(0);
    expect(resumed.stderr).not.toContain('selected');
    expect((JSON.parse(resumed.stdout) as Row[]).map((x) => x.status)).toEqual(Array(on.length - 1).fill('unchanged'));
    expect((await written('unassignDevice')).length).toBe(deletes);
    // evaluated now, the saved selection selects nothing: a new run says so (exit 5)
    const again = await h.cli(['devices', 'unassign', '@on-first-vehicle', '--yes']);
    expect(again.code, report(['unassign again'], again)).toBe(5);
    expect(again.stderr).toContain('matched no device');
  });

  it('refuses, before any request, what a selection cannot go with (exit 2)', async () => {
    const cases: [string[], string][] = [
      [['devices', 'assign', '--where', 'stale', '--yes'], 'give --vehicle-id'],
      [['devices', 'assign', 'HW-000001', '--where', 'stale', '--vehicle-id', seedUuid(1, 1)], 'give a device or --where, not both'],
      [['devices', 'unassign', '--where', 'stale', '--from-file', '-'], 'give --from-file or --where'],
      [['devices', 'unassign', '--resume', '20240601T120000Z-3f9a1c', '@anything'], 'leave out --from-file, --where and @NAME'],
      [['devices', 'unassign', '--where', 'last_sen_at:>2h', '--yes'], 'did you mean last_seen_at?'],
    ];
    for (const [args, said] of cases) {
      const r = await h.cli(args);
      expect(r.code, report(args, r)).toBe(2);
      expect(r.stderr).toContain(said);
    }
  });
});

describe('devices assign|unassign --where against the second service double', { timeout: 120_000 }, () => {
  let h: SecondHarness;
  beforeAll(async () => {
    h = await startSecondHarness();
  });
  afterAll(() => h.close());

  it('selects by its own members (titles, reported_at, vehicle_ref) and sends the vehicle as its document names it', async () => {
    const vehicle = seedUuid(0x7e, 3);
    const from = h.svc.requests.length;
    const args = ['devices', 'assign', '--where', 'fleet:"northern haulage" seen:<1h', '--vehicle-id', vehicle, '--yes', '-o', 'json'];
    const r = await h.cli(args);
    expect(r.code, report(args, r)).toBe(0);
    expect(r.stderr).toContain('selected 3 devices (TLM-00001, TLM-00002, TLM-00003)');
    const puts = h.svc.requests.slice(from).filter((q) => q.method === 'PUT' && q.path.endsWith('/assignment'));
    const assigned = (JSON.parse(r.stdout) as Row[]).filter((x) => x.status === 'assigned').map((x) => x.device);
    expect(puts.length).toBe(assigned.length);
    expect(puts.map((q) => JSON.parse(String(q.body)))).toEqual(assigned.map(() => ({ vehicleId: vehicle })));
    for (const id of ['TLM-00001', 'TLM-00002', 'TLM-00003']) expect(h.svc.state.devices.find((d) => d.hardware_id === id)!.vehicle_ref).toBe(vehicle);
    const on = h.svc.state.devices.filter((d) => d.vehicle_ref === vehicle).map((d) => d.hardware_id).sort();
    const unassign = await h.cli(['devices', 'unassign', '--where', `vehicle_ref:${vehicle}`, '--yes', '-o', 'json']);
    expect(unassign.code, report(['unassign --where'], unassign)).toBe(0);
    expect(rows(unassign.stdout)).toEqual(on.map((id) => [id, 'unassigned']));
    expect(h.svc.state.devices.filter((d) => d.vehicle_ref === vehicle)).toEqual([]);
  });
});
