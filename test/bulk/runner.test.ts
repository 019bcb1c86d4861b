// The bulk runner: a device told to wait holds no request slot, every device is reported once with its one
// key, and the number in flight grows while the API accepts and halves on a 429.
import { describe, expect, it } from 'vitest';
import { ApiError, NetworkError } from '../../src/errors.js';
import { ConnectionFailure } from '../../src/http/network-failure.js';
import { DEFAULT_RETRY_POLICY } from '../../src/shared/retry.js';
import { sendDeviceCommand, type CommandSender, type DeviceCommandOutcome } from '../../src/api/device-commands.js';
import { runBulk, type BulkPlan } from '../../src/bulk/runner.js';
import { AdaptiveConcurrency } from '../../src/bulk/concurrency.js';
import { FakeClock } from '../support/fake-clock.js';

type Answer = number | { status: number; retryAfter?: number } | 'drop' | 'timeout' | 'replayed';

/** An API whose answers are scripted per device (the last one repeats); it records each call and the concurrency. */
function scriptedApi(script: Record<string, Answer[]>, opts: { latencyMs?: number; clock?: FakeClock } = {}) {
  const calls: { hardwareId: string; key: string }[] = [];
  let inFlight = 0;
  const inFlightSeen: number[] = [];
  const api: CommandSender = {
    async call(_op, options) {
      const hardwareId = options.pathParams.hardwareId;
      calls.push({ hardwareId, key: String(options.headers!['Idempotency-Key']) });
      inFlight++;
      inFlightSeen.push(inFlight);
      try {
        // answers come back in a later turn, so that requests really overlap
        await new Promise((resolve) => setTimeout(resolve, opts.latencyMs ?? 0));
        const answers = script[hardwareId] ?? [202];
        const answer = answers.length > 1 ? answers.shift()! : answers[0]!;
        if (answer === 'drop') throw Object.assign(new NetworkError('the connection was lost'), { code: 'ECONNRESET' });
        if (answer === 'timeout') throw new ConnectionFailure('https://api.fleet.test', 'timed out after 5 s', 'raise --timeout', 'UND_ERR_HEADERS_TIMEOUT', false, false, true);
        if (answer === 'replayed') {
          const body = { id: 'c-1', hardware_id: hardwareId, command: 'reboot', status: 'accepted', idempotency_key: 'k', accepted_at: '2026-01-01T00:00:00Z' } as const;
          return { status: 202, headers: { 'idempotent-replayed': 'true' }, body };
        }
        const { status, retryAfter } = typeof answer === 'number' ? { status: answer, retryAfter: undefined } : answer;
        if (status >= 400) throw new ApiError({ status, retryAfter, problem: { status, code: status === 429 ? 'rate_limited' : 'service.unavailable' } });
        const body = { id: 'c-1', hardware_id: hardwareId, command: 'reboot', status: 'accepted', idempotency_key: 'k', accepted_at: '2026-01-01T00:00:00Z' } as const;
        return { status, headers: {}, body };
      } finally {
        inFlight--;
      }
    },
  };
  return { api, calls, inFlightSeen };
}

function plan(ids: string[], over: Partial<BulkPlan> = {}): BulkPlan {
  return { command: 'reboot', hardwareIds: ids, keyFor: (id) => `base:${id}`, concurrency: { initial: 1, max: 1 }, retry: { ...DEFAULT_RETRY_POLICY, maxRetries: 5 }, ...over };
}

async function run(api: Parameters<typeof runBulk>[0], p: BulkPlan, clock = new FakeClock()) {
  const results: DeviceCommandOutcome['result'][] = [];
  await runBulk(api, p, { signal: new AbortController().signal, clock, onResult: (o) => results.push(o.result) });
  return { results, clock };
}

describe('runBulk', () => {
  it('a device waiting out a Retry-After holds no slot: with one slot, the next device goes first', async () => {
    const { api, calls } = scriptedApi({ 'HW-1': [{ status: 503, retryAfter: 1 }, 202] });
    const { results, clock } = await run(api, plan(['HW-1', 'HW-2', 'HW-3']));
    expect(calls.map((c) => c.hardwareId)).toEqual(['HW-1', 'HW-2', 'HW-3', 'HW-1']);
    expect(results.map((r) => [r.hardware_id, r.status])).toEqual([['HW-2', 'accepted'], ['HW-3', 'accepted'], ['HW-1', 'accepted']]);
    expect(clock.sleeps).toEqual([1000]);
  });

  it('retries carry the same key; each device is reported once; dropped connections are retried too', async () => {
    const { api, calls } = scriptedApi({ 'HW-1': ['drop', { status: 503, retryAfter: 1 }, 202], 'HW-2': ['drop', 202] });
    const { results } = await run(api, plan(['HW-1', 'HW-2'], { concurrency: { initial: 2, max: 2 } }));
    expect(calls.filter((c) => c.hardwareId === 'HW-1').map((c) => c.key)).toEqual(['base:HW-1', 'base:HW-1', 'base:HW-1']);
    expect(results.map((r) => r.hardware_id).sort()).toEqual(['HW-1', 'HW-2']);
    expect(results.every((r) => r.status === 'accepted')).toBe(true);
  });

  it('a command that timed out is sent again with its key, and reports what the repeat answered (replayed), not failed', async () => {
    const { api, calls } = scriptedApi({ 'HW-1': ['timeout', 'replayed'], 'HW-2': ['timeout', 'timeout', 202] });
    const { results } = await run(api, plan(['HW-1', 'HW-2'], { concurrency: { initial: 2, max: 2 } }));
    expect(calls.map((c) => c.key).sort()).toEqual(['base:HW-1', 'base:HW-1', 'base:HW-2', 'base:HW-2', 'base:HW-2']);
    expect(results.map((r) => [r.hardware_id, r.status]).sort()).toEqual([['HW-1', 'replayed'], ['HW-2', 'accepted']]);
  });

  it('another kind of task (an assignment, no Idempotency-Key) is not sent again after a timeout', async () => {
    let sent = 0;
    const timeout = new ConnectionFailure('https://api.fleet.test', 'timed out after 5 s', 'raise --timeout', 'UND_ERR_HEADERS_TIMEOUT', false, false, true);
    const send = async (hardwareId: string) => {
      sent++;
      return { result: { hardware_id: hardwareId, status: 'failed', http_status: null, code: 'network.error' }, error: timeout } as unknown as DeviceCommandOutcome;
    };
    const { results } = await run({ call: async () => { throw new Error('not used'); } }, plan(['HW-1'], { send, command: undefined }));
    expect(sent).toBe(1);
    expect(results.map((r) => r.status)).toEqual(['failed']);
  });

  it('a task whose every try carries its key (repeatable: a command sent through the waves) is sent again after a timeout', async () => {
    const { api, calls } = scriptedApi({ 'HW-1': ['timeout', 'replayed'] });
    const send = (hardwareId: string, signal: AbortSignal) => sendDeviceCommand(api, { hardwareId, command: 'reboot', idempotencyKey: `base:${hardwareId}`, signal });
    const { results } = await run(api, plan(['HW-1'], { send, command: undefined, repeatable: true }));
    expect(calls.map((c) => c.key)).toEqual(['base:HW-1', 'base:HW-1']);
    expect(results.map((r) => r.status)).toEqual(['replayed']);
  });

  it('gives up after --max-retries and reports the last failure; a Retry-After beyond --max-retry-wait is not waited for', async () => {
    const { api, calls } = scriptedApi({ 'HW-1': [{ status: 503, retryAfter: 1 }], 'HW-2': [{ status: 503, retryAfter: 3600 }] });
    const { results } = await run(api, plan(['HW-1', 'HW-2'], { retry: { ...DEFAULT_RETRY_POLICY, maxRetries: 2 } }));
    expect(calls.filter((c) => c.hardwareId === 'HW-1')).toHaveLength(3);
    expect(calls.filter((c) => c.hardwareId === 'HW-2')).toHaveLength(1);
    expect(results.map((r) => [r.hardware_id, r.status, r.http_status])).toEqual([['HW-2', 'failed', 503], ['HW-1', 'failed', 503]]);
  });

  it('grows the number in flight while the API accepts, up to the ceiling', async () => {
    const ids = Array.from({ length: 300 }, (_, i) => `HW-${i}`);
    const { api, inFlightSeen } = scriptedApi({}, { latencyMs: 1 });
    const { results } = await run(api, plan(ids, { concurrency: { initial: 2, max: 16 } }));
    expect(results).toHaveLength(300);
    expect(inFlightSeen.slice(0, 2)).toEqual([1, 2]);
    expect(Math.max(...inFlightSeen)).toBe(16);
  });

  it('with a fixed --concurrency never more than that in flight', async () => {
    const ids = Array.from({ length: 50 }, (_, i) => `HW-${i}`);
    const { api, inFlightSeen } = scriptedApi({}, { latencyMs: 1 });
    await run(api, plan(ids, { concurrency: { initial: 4, max: 4 } }));
    expect(Math.max(...inFlightSeen)).toBe(4);
  });
});

describe('AdaptiveConcurrency', () => {
  it('adds one per window of accepted answers, halves on a 429 once per episode, never below 1', () => {
    const c = new AdaptiveConcurrency({ initial: 4, max: 64 });
    const tickets = Array.from({ length: 4 }, () => c.started());
    for (let i = 0; i < 4; i++) c.accepted();
    expect(c.limit).toBe(4); // 4 + 4 * 1/4.x: just under 5
    c.accepted();
    expect(c.limit).toBe(5);
    c.rateLimited(tickets[0]!);
    expect(c.limit).toBe(2);
    c.rateLimited(tickets[1]!); // sent before the decrease: the same episode
    expect(c.limit).toBe(2);
    for (let i = 0; i < 3; i++) c.rateLimited(c.started());
    expect(c.limit).toBe(1);
  });
});
