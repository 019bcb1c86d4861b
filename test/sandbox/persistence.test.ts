import { afterEach, describe, expect, it } from 'vitest';
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startSandbox } from '../../src/sandbox/index.js';
import { Harness, startHarness } from './harness.js';

const dirs: string[] = [];
const tempDir = async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'fleetctl-sandbox-'));
  dirs.push(dir);
  return dir;
};
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

const waitFor = async (check: () => Promise<boolean>, ms = 3000) => {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('timed out');
};

describe('one state file, many sandboxes at once', () => {
  it('a second sandbox on a state file in use is refused at once by default, naming the lock and its holder', async () => {
    const statePath = path.join(await tempDir(), 'state.json');
    const first = await startSandbox({ port: 0, statePath });
    try {
      await expect(startSandbox({ port: 0, statePath })).rejects.toThrow(
        `the sandbox state ${statePath} is in use by process ${process.pid} (a sandbox using this state, since `,
      );
    } finally {
      await first.close();
    }
    expect(await readdir(path.dirname(statePath))).toEqual(['state.json']);
  });

  it('with a wait, the second starts when the first stops, from everything the first saved', async () => {
    const statePath = path.join(await tempDir(), 'state.json');
    const first = await startHarness({ statePath });
    const device = (await first.call('GET', '/v1/devices?limit=50')).body.data.find((d: any) => d.capabilities.includes('reboot'));
    const original = await first.call('POST', `/v1/devices/${device.hardware_id}/commands/reboot`, { headers: { 'idempotency-key': 'turns' } });
    const starting = startSandbox({ port: 0, statePath, stateLockWaitMs: 30_000 });
    let started = false;
    void starting.then(() => (started = true), () => undefined);
    await new Promise((r) => setTimeout(r, 300));
    expect(started).toBe(false);
    await first.close();
    const second = new Harness(await starting);
    try {
      const replay = await second.call('POST', `/v1/devices/${device.hardware_id}/commands/reboot`, { headers: { 'idempotency-key': 'turns' } });
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
      expect(replay.body).toEqual(original.body);
    } finally {
      await second.close();
    }
  });
});

describe('state persistence', () => {
  it('saves after changes and at close, and restores idempotency records, the command log, assignments and tokens', async () => {
    const dir = await tempDir();
    const statePath = path.join(dir, 'nested', 'state.json');
    const first = await startHarness({ statePath });
    const token = await first.token();
    const device = (await first.call('GET', '/v1/devices?limit=50')).body.data.find((d: any) => d.capabilities.includes('reboot') && d.vehicle_id);
    const original = await first.call('POST', `/v1/devices/${device.hardware_id}/commands/reboot`, { headers: { 'idempotency-key': 'persisted' } });
    expect(original.status).toBe(202);
    expect((await first.call('DELETE', `/v1/devices/${device.id}/assignment`)).status).toBe(204);
    // on the disk before the answer, before close
    await waitFor(async () => (await readdir(path.dirname(statePath)).catch((): string[] => [])).includes('state.json'));
    await first.close();
    expect((await readdir(path.dirname(statePath))).filter((f) => f.endsWith('.tmp'))).toEqual([]);

    const second = new Harness(await startSandbox({ port: 0, statePath }));
    try {
      const replay = await second.call('POST', `/v1/devices/${device.hardware_id}/commands/reboot`, {
        token,
        headers: { 'idempotency-key': 'persisted' },
      });
      expect(replay.status).toBe(202);
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
      expect(replay.body).toEqual(original.body);
      const log = await (await fetch(`${second.sb.baseUrl}/_sandbox/commands`)).json();
      expect(log).toHaveLength(1);
      expect((await second.call('GET', `/v1/devices/${device.id}`, { token })).body.vehicle_id).toBeNull();
      // the seed and secrets came from the state file
      expect(second.sb.clients).toEqual(first.sb.clients);
    } finally {
      await second.close();
    }
  });

  it('a restart that changes nothing leaves the state file as it is; a token issued is saved all the same', async () => {
    const dir = await tempDir();
    const statePath = path.join(dir, 'state.json');
    await (await startSandbox({ port: 0, statePath })).close();
    const written = await stat(statePath);

    const idle = await startSandbox({ port: 0, statePath });
    await idle.close();
    const after = await stat(statePath);
    expect([after.ino, after.mtimeMs]).toEqual([written.ino, written.mtimeMs]);

    const issuing = new Harness(await startSandbox({ port: 0, statePath }));
    const token = await issuing.token();
    await issuing.close();
    const next = new Harness(await startSandbox({ port: 0, statePath }));
    try {
      expect((await next.call('GET', '/v1/devices?limit=1', { token })).status).toBe(200);
    } finally {
      await next.close();
    }
  });

  it('refuses a corrupt state file with an error naming it, and leaves it untouched', async () => {
    const dir = await tempDir();
    const statePath = path.join(dir, 'state.json');
    for (const content of ['{"format": "fleetctl-sandbox-state", "version": 1, "seed": ', '[]', '{"format":"other"}', '']) {
      await writeFile(statePath, content);
      await expect(startSandbox({ port: 0, statePath })).rejects.toThrow(statePath);
      await expect(startSandbox({ port: 0, statePath })).rejects.toThrow(/corrupt/);
      expect(await readFile(statePath, 'utf8')).toBe(content);
    }
    expect(await readdir(dir)).toEqual(['state.json']);
  });

  it('refuses a state file whose sections do not fit the sandbox', async () => {
    const dir = await tempDir();
    const statePath = path.join(dir, 'state.json');
    const h = await startHarness({ statePath });
    await h.call('POST', '/v1/drivers', { body: { organization_id: h.org('Acme Logistics').id, fleet_id: (await h.call('GET', '/v1/fleets')).body.data[0].id, first_name: 'A', last_name: 'B' } });
    await h.close();
    const state = JSON.parse(await readFile(statePath, 'utf8'));
    state.world.createdDrivers = [null];
    const content = JSON.stringify(state);
    await writeFile(statePath, content);
    await expect(startSandbox({ port: 0, statePath })).rejects.toThrow(/corrupt.*world.createdDrivers/);
    expect(await readFile(statePath, 'utf8')).toBe(content);
  });

  it('starts afresh with POST /_sandbox/reset', async () => {
    const h = await startHarness();
    try {
      const hw = (await h.call('GET', '/v1/devices?limit=1')).body.data[0].hardware_id;
      await h.call('POST', `/v1/devices/${hw}/commands/reboot`, { headers: { 'idempotency-key': 'x' } });
      expect((await fetch(`${h.sb.baseUrl}/_sandbox/reset`, { method: 'POST' })).status).toBe(204);
      expect(await (await fetch(`${h.sb.baseUrl}/_sandbox/commands`)).json()).toEqual([]);
    } finally {
      await h.close();
    }
  });
});
