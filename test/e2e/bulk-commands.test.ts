// Bulk reboot / wake-up end to end, against a sandbox that allows 50 requests/s and fails chosen requests (a
// 503 and a dropped connection, each once, for each verb): every capable device executed exactly once, a
// rerun with the same key executes nothing new, and a run interrupted by SIGINT then resumed completes with no
// duplicate.
//
// 150 devices, where 500 made each run last at least 10 s (devices / rate): three times the limiter's
// one-second burst, so a client faster than 50/s is still limited. The failures are targeted rules
// (/_sandbox/faults), not a random rate: each run meets each of them, and the test checks it did. A random 20%
// made some thirty failures per run, each waited for (Retry-After: 1), for no property more.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { BIN, startHarness, type SandboxHarness } from './harness.js';

interface Device {
  hardware_id: string;
  capabilities: string[];
}
interface Executed {
  hardware_id: string;
  command: string;
  idempotency_key: string;
}
interface Result {
  hardware_id: string;
  status: string;
  http_status: number | null;
  code: string | null;
  idempotency_key: string;
  command: string;
}

const DEVICES = 150;
let h: SandboxHarness;
let idsFile: string;
let visible: Map<string, Device>;

beforeAll(async () => {
  h = await startHarness({ devices: DEVICES, rateLimit: 50 });
  const listed = await h.cli(['devices', 'list', '--all', '--limit', '500', '-o', 'ndjson'], { timeoutMs: 60_000 });
  expect(listed.code).toBe(0);
  visible = new Map(listed.stdout.trim().split('\n').map((l) => JSON.parse(l) as Device).map((d) => [d.hardware_id, d]));
  // every device of the sandbox, including those of another tenant (unknown to these credentials: not found)
  idsFile = path.join(h.configDir, 'ids.txt');
  const ids = Array.from({ length: DEVICES }, (_, i) => `HW-${String(i + 1).padStart(6, '0')}`);
  expect(ids.filter((id) => visible.has(id)).length).toBe(visible.size);
  // enough of each kind for the properties below to mean something: other tenants' devices, devices without
  // a capability, and enough capable ones to interrupt a run half way
  expect(visible.size).toBeLessThan(DEVICES);
  for (const capability of ['reboot', 'wake_up']) {
    expect(capable(capability).length).toBeGreaterThanOrEqual(20);
    expect(capable(capability).length).toBeLessThan(visible.size);
  }
  writeFileSync(idsFile, `# all ${DEVICES} devices\n${ids.join('\n')}\n`);
  // two capable devices of each verb fail once, each its own way; their retries (the same idempotency key) go
  // through. No injected 429: the limiter answers those, and one out of turn would only slow the client's pacing.
  for (const [operation_id, capability] of [['rebootDevice', 'reboot'], ['wakeUpDevice', 'wake_up']] as const) {
    const [unavailable, dropped] = capable(capability);
    await addFault({ match: { operation_id, hardware_id: unavailable! }, respond: { status: 503 }, times: 1 });
    await addFault({ match: { operation_id, hardware_id: dropped! }, respond: { drop: true }, times: 1 });
  }
}, 120_000);

afterAll(async () => {
  await h?.close();
});

/** How many reboot requests the sandbox answered with this status (its request journal keeps 1000). */
const rebootsAnswered = async (status: string): Promise<number> =>
  ((await (await fetch(`${h.sandbox.baseUrl}/_sandbox/requests?operation_id=rebootDevice&status=${status}&limit=10000`)).json()) as unknown[]).length;
const executed = async (): Promise<Executed[]> => (await (await fetch(`${h.sandbox.baseUrl}/_sandbox/commands`)).json()) as Executed[];
async function addFault(rule: object): Promise<void> {
  const res = await fetch(`${h.sandbox.baseUrl}/_sandbox/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(rule) });
  expect(res.status, await res.text()).toBe(201);
}
/** How many times each fault rule of this operation has answered (each may answer once). */
const faultHits = async (operationId: string): Promise<number[]> =>
  ((await (await fetch(`${h.sandbox.baseUrl}/_sandbox/faults`)).json()) as { match: { operation_id: string }; hits: number }[])
    .filter((rule) => rule.match.operation_id === operationId)
    .map((rule) => rule.hits);
const parse = (stdout: string): Result[] => stdout.trim().split('\n').map((l) => JSON.parse(l) as Result);
const capable = (capability: string) => [...visible.values()].filter((d) => d.capabilities.includes(capability)).map((d) => d.hardware_id).sort();

function expectedStatus(id: string, capability: string): string {
  const device = visible.get(id);
  if (!device) return 'not_found';
  return device.capabilities.includes(capability) ? 'accepted' : 'capability_missing';
}

describe('bulk commands end to end (targeted faults, rate limit 50/s)', { timeout: 180_000 }, () => {
  it('reboot of 150 devices: each capable one executed exactly once, the others reported, exit 10; a rerun with the same key executes nothing new', async () => {
    const run = await h.cli(['devices', 'reboot', '--from-file', idsFile, '--idempotency-key', 'e2e-bulk-1', '--yes', '-o', 'ndjson'], { timeoutMs: 150_000 });
    expect(run.code).toBe(10);
    const results = parse(run.stdout);
    expect(results).toHaveLength(DEVICES);
    for (const r of results) {
      expect(r.status).toBe(expectedStatus(r.hardware_id, 'reboot'));
      expect(r.idempotency_key).toBe(`e2e-bulk-1:${r.hardware_id}`);
    }
    expect(results.filter((r) => r.status === 'failed')).toEqual([]);
    const log = (await executed()).filter((c) => c.command === 'reboot');
    expect(log).toHaveLength(new Set(log.map((c) => c.hardware_id)).size);
    expect(log.map((c) => c.hardware_id).sort()).toEqual(capable('reboot'));
    expect(run.stderr).toMatch(/capability missing: HW-/);
    expect(run.stderr).toMatch(/not found: HW-/);
    // the run went through each injected failure (whether it met the limiter's own 429s depends on how fast
    // this machine lets it go)
    expect(await faultHits('rebootDevice')).toEqual([1, 1]);
    expect(await rebootsAnswered('503')).toBe(1);

    const again = await h.cli(['devices', 'reboot', '--from-file', idsFile, '--idempotency-key', 'e2e-bulk-1', '--yes', '-o', 'ndjson'], { timeoutMs: 150_000 });
    expect(again.code).toBe(10);
    const replayed = parse(again.stdout);
    expect(replayed.filter((r) => r.status === 'accepted')).toEqual([]);
    expect(replayed.filter((r) => r.status === 'replayed').map((r) => r.hardware_id).sort()).toEqual(capable('reboot'));
    expect((await executed()).filter((c) => c.command === 'reboot')).toHaveLength(log.length);
  });

  it('wake-up killed with SIGINT half way, then --resume: the rest completes, nothing executed twice', async () => {
    const child = spawn(process.execPath, [BIN, 'devices', 'wake-up', '--from-file', idsFile, '--yes', '-o', 'ndjson'], {
      env: { PATH: process.env.PATH ?? '', HOME: h.configDir, CI: 'true', NO_COLOR: '1', ...h.envFor() },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    let stdout = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
    const target = Math.floor(capable('wake_up').length / 2);
    for (let i = 0; i < 600; i++) {
      if ((await executed()).filter((c) => c.command === 'wake_up').length >= target) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    child.kill('SIGINT');
    expect(await closed).toBe(130);
    const runId = /^Run (\S+):/m.exec(stderr)![1]!;
    expect(stderr).toContain(`resume with: fleetctl devices wake-up --resume ${runId} --yes`);
    const before = (await executed()).filter((c) => c.command === 'wake_up');
    expect(before.length).toBeGreaterThanOrEqual(target);
    expect(before.length).toBeLessThan(capable('wake_up').length);
    expect(parse(stdout).length).toBeLessThan(DEVICES);

    const resumed = await h.cli(['devices', 'wake-up', '--resume', runId, '--yes', '-o', 'ndjson'], { timeoutMs: 150_000 });
    expect(resumed.code).toBe(10);
    // the resumed run prints only what it completes: appended to the first run's output, each device once
    const firstDone = parse(stdout).filter((r) => r.status !== 'failed');
    const results = [...firstDone, ...parse(resumed.stdout)];
    expect(results).toHaveLength(DEVICES);
    expect(new Set(results.map((r) => r.hardware_id)).size).toBe(DEVICES);
    // a request in flight at the interrupt may have executed: resumed with the same key, it is a replay
    for (const r of results) {
      const want = expectedStatus(r.hardware_id, 'wake_up');
      expect(want === 'accepted' && r.status === 'replayed' ? want : r.status).toBe(want);
    }
    const log = (await executed()).filter((c) => c.command === 'wake_up');
    expect(log).toHaveLength(new Set(log.map((c) => c.hardware_id)).size);
    expect(log.map((c) => c.hardware_id).sort()).toEqual(capable('wake_up'));
    // between them, the two runs met each injected failure
    expect(await faultHits('wakeUpDevice')).toEqual([1, 1]);
  });
});
