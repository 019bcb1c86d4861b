// Targeted faults end to end: one device's reboot fails twice (503) and then succeeds, inside a bulk run of a
// whole fleet, and is executed exactly once; the fault rule, the journal and `sandbox requests` say so. Also
// the other answers a rule can give, as the CLI meets them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type SandboxHarness } from './harness.js';

const FLEET = 'c0ffee00-0000-4000-8000-0000000000f1';
const TARGET = 'TRUCK-03';
const scenario = {
  name: 'six trucks',
  base: 'empty',
  organizations: [{ key: 'haulage', name: 'Example Haulage' }],
  fleets: [{ key: 'trucks', organization: 'haulage', name: 'Trucks', id: FLEET }],
  devices: ['TRUCK-01', 'TRUCK-02', TARGET, 'TRUCK-04', 'TRUCK-05', 'TRUCK-06'].map((id) => ({ fleet: 'trucks', hardware_id: id })),
  clients: [{ client_id: 'ops', organization: 'haulage', scopes: ['all'] }],
};

interface Result {
  hardware_id: string;
  status: string;
  idempotency_key: string;
}

let h: SandboxHarness;
beforeAll(async () => {
  h = await startHarness({ scenario });
});
afterAll(async () => {
  await h?.close();
});

const json = async (path: string) => (await fetch(`${h.sandbox.baseUrl}${path}`)).json() as Promise<any>;

describe('targeted faults', { timeout: 120_000 }, () => {
  it("a device's reboot fails twice, then succeeds, exactly once, in a bulk run of its fleet", async () => {
    const added = await h.cli(['sandbox', 'fault', 'add', '--operation-id', 'rebootDevice', '--hardware-id', TARGET, '--status', '503', '--retry-after', '0', '--times', '2', '-o', 'json'], { client: 'ops' });
    expect(added.code, added.stderr).toBe(0);
    const rule = JSON.parse(added.stdout);
    expect(rule).toMatchObject({ match: { operation_id: 'rebootDevice', hardware_id: TARGET }, respond: { status: 503, retry_after: 0 }, times: 2, hits: 0 });

    const run = await h.cli(['devices', 'reboot', '--fleet-id', FLEET, '--yes', '--idempotency-key', 'ci-run-7', '-o', 'ndjson'], { client: 'ops' });
    expect(run.code, run.stderr).toBe(0);
    const results = run.stdout.trim().split('\n').map((l) => JSON.parse(l) as Result);
    expect(results.map((r) => r.hardware_id).sort()).toEqual(scenario.devices.map((d) => d.hardware_id).sort());
    expect(results.every((r) => r.status === 'accepted')).toBe(true);

    // executed exactly once, with the key of the run
    const executed = (await json('/_sandbox/commands')) as { hardware_id: string; idempotency_key: string }[];
    expect(executed.filter((e) => e.hardware_id === TARGET)).toEqual([expect.objectContaining({ idempotency_key: `ci-run-7:${TARGET}` })]);
    expect(executed).toHaveLength(6);

    // the rule answered twice and retired
    const rules = await h.cli(['sandbox', 'fault', 'list', '-o', 'json'], { client: 'ops' });
    expect(JSON.parse(rules.stdout)).toEqual([expect.objectContaining({ id: rule.id, hits: 2, times: 2 })]);

    // the journal: 503, 503, 202, all with the same Idempotency-Key; the first two answered by the rule
    const journal = await h.cli(['sandbox', 'requests', '--operation-id', 'rebootDevice', '--hardware-id', TARGET, '-o', 'json'], { client: 'ops' });
    expect(journal.code, journal.stderr).toBe(0);
    const entries = JSON.parse(journal.stdout) as { status: number; fault: string | null; idempotency_key: string; client_id: string; authorization: string }[];
    expect(entries.map((e) => [e.status, e.fault])).toEqual([[503, rule.id], [503, rule.id], [202, null]]);
    expect(new Set(entries.map((e) => e.idempotency_key))).toEqual(new Set([`ci-run-7:${TARGET}`]));
    expect(entries.every((e) => e.client_id === 'ops' && e.authorization === 'Bearer [REDACTED]')).toBe(true);
  });

  it('a dropped connection, a truncated body and a failing token endpoint reach the CLI as the failures they are', async () => {
    expect((await h.cli(['sandbox', 'fault', 'clear'], { client: 'ops' })).code).toBe(0);
    // the token endpoint refuses the client: fleetctl says so, exit 3
    await h.cli(['sandbox', 'fault', 'add', '--operation-id', 'requestToken', '--client-id', 'ops', '--status', '401', '--times', '1'], { client: 'ops' });
    const refused = await h.cli(['fleets', 'list'], { client: 'ops' });
    expect(refused.code).toBe(3);
    expect(refused.stderr).toMatch(/invalid_client/);
    // every connection for the fleet list dropped: retried, then exit 9
    await h.cli(['sandbox', 'fault', 'add', '--operation-id', 'listFleets', '--drop'], { client: 'ops' });
    const dropped = await h.cli(['fleets', 'list', '--max-retries', '1'], { client: 'ops' });
    expect(dropped.code).toBe(9);
    const drops = await json('/_sandbox/requests?operation_id=listFleets&status=dropped');
    expect(drops).toHaveLength(2);
    expect(drops[0]).toMatchObject({ status: null, outcome: 'dropped' });
    // a truncated answer to a GET: retried like a dropped connection, and the second try is answered in full
    expect((await h.cli(['sandbox', 'fault', 'clear'], { client: 'ops' })).code).toBe(0);
    await h.cli(['sandbox', 'fault', 'add', '--operation-id', 'listFleets', '--truncate', '--times', '1'], { client: 'ops' });
    const truncatedOnce = await h.cli(['fleets', 'list', '-o', 'json'], { client: 'ops' });
    expect(truncatedOnce.code, truncatedOnce.stderr).toBe(0);
    expect(JSON.parse(truncatedOnce.stdout)).toEqual([expect.objectContaining({ id: FLEET })]);
    expect((await json('/_sandbox/requests?operation_id=listFleets&limit=2')).map((e: { outcome: string }) => e.outcome)).toEqual(['truncated', 'answered']);
  });
});
