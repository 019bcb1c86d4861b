// Acknowledged means kept: a change the sandbox answered 2xx is on the disk before the answer (read back here
// while the sandbox still runs, as a crash would leave it), and a change it could not save is answered 503.
import { describe, expect, it } from 'vitest';
import { tempDir } from '../support/temp-dir.js';
import { appendFile, mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { startSandbox } from '../../src/sandbox/index.js';
import { loadState } from '../../src/sandbox/state-file.js';
import { changeLogOf } from '../../src/sandbox/store/state-changes.js';
import { Harness, startHarness } from './harness.js';

const stateIn = async () => path.join(tempDir('fleetctl-durable-'), 'state.json');

const rebootable = async (h: Harness, n: number): Promise<string[]> =>
  (await h.call('GET', '/v1/devices?limit=100')).body.data.filter((d: any) => d.capabilities.includes('reboot')).slice(0, n).map((d: any) => d.hardware_id);

describe('acknowledged means kept', () => {
  it('every change answered is in the state on the disk before the answer: commands, assignments, drivers, webhook configs, tokens', async () => {
    const statePath = await stateIn();
    const h = await startHarness({ statePath });
    try {
      const token = await h.token();
      const devices = await rebootable(h, 12);
      // answered together: saves are shared, none is left out
      const answers = await Promise.all(devices.map((hw) => h.call('POST', `/v1/devices/${hw}/commands/reboot`, { headers: { 'idempotency-key': `k-${hw}` } })));
      expect(answers.map((a) => a.status)).toEqual(devices.map(() => 202));
      const device = (await h.call('GET', '/v1/devices?limit=50')).body.data.find((d: any) => d.vehicle_id);
      expect((await h.call('DELETE', `/v1/devices/${device.id}/assignment`)).status).toBe(204);
      const org = h.org('Acme Logistics').id;
      const fleet = (await h.call('GET', '/v1/fleets')).body.data[0].id;
      const driver = await h.call('POST', '/v1/drivers', { body: { organization_id: org, fleet_id: fleet, first_name: 'Ada', last_name: 'Kept' } });
      expect(driver.status).toBe(201);
      expect((await h.call('PUT', `/v1/drivers/${driver.body.id}`, { body: { last_name: 'Renamed' } })).status).toBe(200);
      const hook = await h.call('PUT', `/v1/organizations/${org}/webhook-config`, { body: { is_enabled: false, topics: [{ type: 'live_gps', is_enabled: true, delivery: { url: 'https://hooks.example.com/gps' } }] } });
      expect(hook.status).toBe(201);

      // read as a crash would leave it: the sandbox is still running, nothing was closed or flushed
      const saved = (await loadState(statePath))!.state;
      expect(saved.commands.log.map((e) => e.hardware_id).sort()).toEqual([...devices].sort());
      expect(Object.keys(saved.commands.idempotency)).toHaveLength(devices.length);
      expect(saved.world.assignments[device.id]).toMatchObject({ vehicle_id: null });
      expect(saved.world.createdDrivers).toEqual([expect.objectContaining({ id: driver.body.id, last_name: 'Renamed' })]);
      expect(saved.webhooks.configs[org]).toMatchObject({ is_enabled: false, topics: [expect.objectContaining({ type: 'live_gps' })] });
      expect(Object.keys(saved.tokens)).toContain(token);
      // kept as a log of changes beside the state file, not by writing the whole state for each
      expect((await readFile(changeLogOf(statePath), 'utf8')).split('\n').length).toBeGreaterThan(devices.length * 2);
    } finally {
      await h.close();
    }
    // a restart reads the log: the replay answers from what was kept
    const again = new Harness(await startSandbox({ port: 0, statePath }));
    try {
      const commands = (await (await fetch(`${again.sb.baseUrl}/_sandbox/commands`)).json()) as unknown[];
      expect(commands).toHaveLength(12);
    } finally {
      await again.close();
    }
  });

});

describe('acknowledged means kept, when writing fails', () => {
  it('a log whose last line was cut off (a crash mid-write) loses that line only; a log older than the state file is ignored', async () => {
    const statePath = await stateIn();
    const h = await startHarness({ statePath });
    const [first, second] = await rebootable(h, 2);
    await h.call('POST', `/v1/devices/${first}/commands/reboot`, { headers: { 'idempotency-key': 'one' } });
    await h.close();
    await appendFile(changeLogOf(statePath), '{"path":["commands","log",1],"value":{"hardware_id":"HW-');
    const torn = (await loadState(statePath))!;
    expect(torn.state.commands.log.map((e) => e.hardware_id)).toEqual([first]);
    expect(torn.log.appendableBytes).toBeNull();

    // the next start writes the state whole (the fragment is not appended to), and goes on from there
    const next = await startHarness({ statePath });
    expect((await next.call('POST', `/v1/devices/${second}/commands/reboot`, { headers: { 'idempotency-key': 'two' } })).status).toBe(202);
    await next.close();
    expect((await loadState(statePath))!.state.commands.log.map((e) => e.hardware_id)).toEqual([first, second]);
    expect(await readFile(changeLogOf(statePath), 'utf8')).not.toContain('"HW-\n');

    // a log over an earlier state file (a crash fell between writing the state whole and removing the old log)
    const stale = `${JSON.stringify({ extends: 'f'.repeat(64) })}\n${JSON.stringify({ path: ['commands', 'log', 2], value: { hardware_id: 'HW-STALE', command: 'reboot', idempotency_key: 'x', executed_at: new Date().toISOString() } })}\n`;
    await writeFile(changeLogOf(statePath), stale);
    const state = JSON.parse(await readFile(statePath, 'utf8'));
    expect((await loadState(statePath))!.state.commands.log).toEqual(state.commands.log);
  });

  it('a change that cannot be saved is answered 503 with a problem document, never 2xx; once it can, the retry replays', async () => {
    const statePath = await stateIn();
    const h = await startHarness({ statePath });
    try {
      const [hw] = await rebootable(h, 1);
      await h.token();
      // neither the log nor the state file can be written: each is a directory
      await rm(changeLogOf(statePath), { force: true });
      await mkdir(changeLogOf(statePath));
      await rm(statePath);
      await mkdir(statePath);
      const refused = await h.call('POST', `/v1/devices/${hw}/commands/reboot`, { headers: { 'idempotency-key': 'full-disk' } });
      expect(refused.status).toBe(503);
      expect(refused.headers.get('content-type')).toContain('application/problem+json');
      expect(refused.body).toMatchObject({ status: 503, code: 'service.unavailable', detail: expect.stringContaining('could not save its state') });
      // a retry is refused as long as nothing can be saved: what it would replay is not kept either
      expect((await h.call('POST', `/v1/devices/${hw}/commands/reboot`, { headers: { 'idempotency-key': 'full-disk' } })).status).toBe(503);
      // reads go on
      expect((await h.call('GET', '/v1/devices?limit=1')).status).toBe(200);

      await rm(statePath, { recursive: true });
      const retried = await h.call('POST', `/v1/devices/${hw}/commands/reboot`, { headers: { 'idempotency-key': 'full-disk' } });
      expect(retried.status).toBe(202);
      expect(retried.headers.get('idempotent-replayed')).toBe('true');
      await rm(changeLogOf(statePath), { recursive: true });
      expect((await loadState(statePath))!.state.commands.log.map((e) => e.hardware_id)).toEqual([hw]);
    } finally {
      await h.close();
    }
    expect((await readdir(path.dirname(statePath))).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });
});
