// Issue 25, must-show 4: `devices assign|unassign --from-file` against the sandbox, through the bulk engine: each
// device read first (an assignment in place is `unchanged`, nothing sent), --dry-run shows each change, bad rows
// refused in one line before anything is sent (exit 2), --yes required without a terminal, per-device NDJSON,
// exit 10 on partial failure, --resume of an interrupted run.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type SandboxHarness } from './harness.js';

let h: SandboxHarness;
interface Device { id: string; hardware_id: string; vehicle_id: string | null }
let assigned: Device[];
let free: Device[];

beforeAll(async () => {
  h = await startHarness({ devices: 30 });
  const all = JSON.parse((await h.cli(['devices', 'list', '--all', '-o', 'json'])).stdout) as Device[];
  assigned = all.filter((d) => d.vehicle_id !== null);
  free = all.filter((d) => d.vehicle_id === null);
  expect([assigned.length >= 5, free.length >= 3]).toEqual([true, true]);
}, 60_000);

afterAll(async () => {
  await h?.close();
});

const lines = (stdout: string) => stdout.trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
const vehicleOf = async (id: string) => (JSON.parse((await h.cli(['devices', 'get', id, '-o', 'json'])).stdout) as Device).vehicle_id;

describe('devices assign --from-file against the sandbox', { timeout: 180_000 }, () => {
  it('--dry-run shows each change, an assignment in place as unchanged, and changes nothing', async () => {
    const [a, b] = assigned;
    const csv = `device,vehicle\n${a!.hardware_id},${a!.vehicle_id}\n${b!.id},${a!.vehicle_id}\n`;
    const r = await h.cli(['devices', 'assign', '--from-file', '-', '--dry-run', '-o', 'json'], { input: csv });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([
      { device: a!.hardware_id, device_id: a!.id, vehicle_id: a!.vehicle_id, command: 'assign', status: 'unchanged', http_status: null, code: null },
      { device: b!.id, device_id: b!.id, vehicle_id: a!.vehicle_id, command: 'assign', status: 'would_assign', http_status: null, code: null },
    ]);
    expect(r.stderr).toContain('Dry run of devices assign: 2 devices: 1 unchanged, 1 would assign; nothing was sent');
    expect(await vehicleOf(b!.id)).toBe(b!.vehicle_id);
  });

  it('assigns what changes (NDJSON results on stdout), leaves what is in place; a rerun is all unchanged', async () => {
    const [a] = assigned;
    const target = free[0]!;
    const csv = `vehicle,device\n${a!.vehicle_id},${target.hardware_id}\n${a!.vehicle_id},${a!.hardware_id}\n`;
    const first = await h.cli(['devices', 'assign', '--from-file', '-', '--yes', '-o', 'ndjson'], { input: csv });
    expect(first.code, first.stderr).toBe(0);
    expect(lines(first.stdout).map((l) => [l.device, l.status, l.http_status]).sort()).toEqual([[a!.hardware_id, 'unchanged', null], [target.hardware_id, 'assigned', 200]].sort());
    expect(first.stderr).toMatch(/^Run \S+: assign of 2 devices; journal /m);
    expect(await vehicleOf(target.id)).toBe(a!.vehicle_id);
    const again = await h.cli(['devices', 'assign', '--from-file', '-', '--yes', '-o', 'ndjson'], { input: csv });
    expect(again.code, again.stderr).toBe(0);
    expect(lines(again.stdout).map((l) => l.status)).toEqual(['unchanged', 'unchanged']);
  });

  it('a bad row is one line naming the file, the line and what is wrong (exit 2), before anything is sent', async () => {
    const file = path.join(h.configDir, 'rows.csv');
    writeFileSync(file, `device,vehicle\n${free[1]!.hardware_id},${assigned[0]!.vehicle_id}\n${free[2]!.hardware_id},not-a-uuid\n`);
    const r = await h.cli(['devices', 'assign', '--from-file', file, '--yes']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.split('\n')[0]).toBe(`Error: "${file}" line 3: vehicle "not-a-uuid" is not a vehicle id (uuid)`);
    expect(await vehicleOf(free[1]!.id)).toBeNull();
    const ndjson = await h.cli(['devices', 'assign', '--from-file', '-', '--yes'], { input: `{"device":"${free[1]!.hardware_id}"}\n` });
    expect(ndjson.stderr.split('\n')[0]).toBe('Error: --from-file (stdin) line 1: no vehicle: assign needs a vehicle id on every row');
  });

  it('without a terminal --yes is required (exit 2, nothing sent)', async () => {
    const r = await h.cli(['devices', 'assign', '--from-file', '-'], { input: `device,vehicle\n${free[1]!.hardware_id},${assigned[0]!.vehicle_id}\n` });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/confirmation required/);
    expect(await vehicleOf(free[1]!.id)).toBeNull();
  });

  it('a device that does not exist fails alone: exit 10, the others done', async () => {
    const csv = `device,vehicle\nNO-SUCH-DEVICE,${assigned[0]!.vehicle_id}\n${free[1]!.hardware_id},${assigned[0]!.vehicle_id}\n`;
    const r = await h.cli(['devices', 'assign', '--from-file', '-', '--yes', '-o', 'json'], { input: csv });
    expect(r.code).toBe(10);
    expect((JSON.parse(r.stdout) as { status: string }[]).map((x) => x.status)).toEqual(['not_found', 'assigned']);
    expect(r.stderr).toContain('failed: NO-SUCH-DEVICE (device.not_found)');
  });

  it('--resume finishes an interrupted run: the devices already done are not read or sent again', async () => {
    const journal = path.join(h.configDir, 'assign-journal.ndjson');
    const [x, y] = [assigned[2]!, assigned[3]!];
    const csv = `device,vehicle\n${x.hardware_id},${assigned[0]!.vehicle_id}\n${y.hardware_id},${assigned[0]!.vehicle_id}\n`;
    const first = await h.cli(['devices', 'assign', '--from-file', '-', '--yes', '--journal', journal, '--concurrency', '1', '-o', 'ndjson'], { input: csv });
    expect(first.code, first.stderr).toBe(0);
    const runId = /Run (\S+):/.exec(first.stderr)![1]!;
    // as if the run had stopped after the first device: its second result never written, the device on its own vehicle again
    const [header, sending, firstResult] = readFileSync(journal, 'utf8').split('\n');
    expect(JSON.parse(sending!)).toMatchObject({ type: 'sending' });
    writeFileSync(journal, `${header}\n${sending}\n${firstResult}\n`);
    const done = JSON.parse(firstResult!).hardware_id as string;
    const other = done === x.hardware_id ? y : x;
    expect((await h.cli(['devices', 'assign', other.id, '--vehicle-id', other.vehicle_id!])).code).toBe(0);
    const resumed = await h.cli(['devices', 'assign', '--resume', runId, '--journal', journal, '--yes', '-o', 'ndjson']);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(lines(resumed.stdout).map((l) => [l.device, l.status])).toEqual([[other.hardware_id, 'assigned']]);
    expect(resumed.stderr).toContain('(1 already done)');
  });
});

describe('devices unassign --from-file against the sandbox', { timeout: 120_000 }, () => {
  it('NDJSON by device id: unassigns the assigned, leaves the free one unchanged', async () => {
    const [a] = assigned.slice(-1);
    const f = free[free.length - 1]!;
    const input = `{"device":"${a!.id}"}\n{"device_id":"${f.hardware_id}"}\n`;
    const r = await h.cli(['devices', 'unassign', '--from-file', '-', '--yes', '-o', 'json'], { input });
    expect(r.code, r.stderr).toBe(0);
    expect((JSON.parse(r.stdout) as { device: string; status: string; http_status: number | null }[]).map((x) => [x.device, x.status, x.http_status])).toEqual([
      [a!.id, 'unassigned', 204],
      [f.hardware_id, 'unchanged', null],
    ]);
    expect(await vehicleOf(a!.id)).toBeNull();
  });

  it('a device argument and --from-file together is exit 2', async () => {
    const r = await h.cli(['devices', 'unassign', 'HW-000001', '--from-file', '-', '--yes']);
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n')[0]).toBe('Error: give a device or --from-file, not both (got "HW-000001" and a file)');
  });
});
