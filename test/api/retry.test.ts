// Retries with back-off on 429, 503 and connection failures, only for requests safe to repeat; Retry-After; the max wait.
import { describe, expect, it } from 'vitest';
import type { MockAgent } from 'undici';
import { ApiClient } from '../../src/api/client.js';
import { createTransport } from '../../src/http/transport.js';
import { silentTracer } from '../../src/http/trace.js';
import { DEFAULT_RETRY_POLICY } from '../../src/shared/retry.js';
import type { TokenSource } from '../../src/auth/tokens.js';
import { ApiError } from '../../src/errors.js';
import { BASE_URL, newMockAgent, page, problem, stubApi, stubConnectionFailure, stubToken } from '../support/mock-http.js';
import { ciEnv, runCli, tempConfigDir } from '../support/cli.js';
import { FakeClock, T0 } from '../support/fake-clock.js';

const unavailable = problem(503, 'service.unavailable', 'The service is unavailable.');
const limited = problem(429, 'rate_limit.exceeded', 'Too many requests.');

async function devicesList(agent: MockAgent, clock: FakeClock, extra: string[] = []) {
  return runCli(['devices', 'list', '-o', 'json', ...extra], { env: ciEnv(tempConfigDir()), agent, clock });
}

describe('GET retries (through the CLI)', () => {
  it('retries a 503 with back-off and succeeds', async () => {
    const agent = newMockAgent();
    const clock = new FakeClock();
    stubToken(agent, { scope: 'devices_read' });
    stubApi(agent, { path: '/v1/devices', status: 503, body: unavailable, times: 2 });
    stubApi(agent, { path: '/v1/devices', body: page([{ id: 'd1' }]) });
    const result = await devicesList(agent, clock);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual([{ id: 'd1' }]);
    expect(clock.sleeps).toHaveLength(2);
    // exponential back-off with jitter: attempt n waits between half and all of base * 2^n
    expect(clock.sleeps[0]).toBeGreaterThanOrEqual(125);
    expect(clock.sleeps[0]).toBeLessThanOrEqual(250);
    expect(clock.sleeps[1]).toBeGreaterThanOrEqual(250);
    expect(clock.sleeps[1]).toBeLessThanOrEqual(500);
  });

  it('retries a connection failure and succeeds', async () => {
    const agent = newMockAgent();
    const clock = new FakeClock();
    stubToken(agent, { scope: 'devices_read' });
    stubConnectionFailure(agent, '/v1/devices');
    stubApi(agent, { path: '/v1/devices', body: page([]) });
    const result = await devicesList(agent, clock);
    expect(result.code).toBe(0);
    expect(clock.sleeps).toHaveLength(1);
  });

  it('gives up after --max-retries (default 3) with exit 9', async () => {
    const agent = newMockAgent();
    const clock = new FakeClock();
    stubToken(agent, { scope: 'devices_read' });
    stubApi(agent, { path: '/v1/devices', status: 503, body: unavailable, times: 4 });
    const result = await devicesList(agent, clock);
    expect(result.code).toBe(9);
    expect(clock.sleeps).toHaveLength(3);
  });

  it('honours --max-retries', async () => {
    const agent = newMockAgent();
    const clock = new FakeClock();
    stubToken(agent, { scope: 'devices_read' });
    stubApi(agent, { path: '/v1/devices', status: 503, body: unavailable, times: 2 });
    const result = await devicesList(agent, clock, ['--max-retries', '1']);
    expect(result.code).toBe(9);
    expect(clock.sleeps).toHaveLength(1);
  });

  it('--max-retries 0 does not retry; a connection failure then exits 9 with a clear message', async () => {
    const agent = newMockAgent();
    const clock = new FakeClock();
    stubToken(agent, { scope: 'devices_read' });
    stubConnectionFailure(agent, '/v1/devices');
    const result = await devicesList(agent, clock, ['--max-retries', '0']);
    expect(result.code).toBe(9);
    expect(clock.sleeps).toEqual([]);
    expect(result.stderr).toContain(`Error: the connection to ${BASE_URL}/v1/devices was lost before an answer came (ECONNRESET)`);
    expect(result.stderr).toContain('may or may not have been processed');
  });

  it.each([
    [['--max-retries', 'many'], '--max-retries must be a whole number'],
    [['--max-retry-wait', '-1'], '--max-retry-wait must be a positive number of seconds'],
    [['--timeout', '0'], '--timeout must be a positive number of seconds'],
  ])('rejects %j before any request', async (flags, message) => {
    const result = await devicesList(newMockAgent(), new FakeClock(), flags);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(message);
  });

  it('waits as long as Retry-After says, in seconds', async () => {
    const agent = newMockAgent();
    const clock = new FakeClock();
    stubToken(agent, { scope: 'devices_read' });
    stubApi(agent, { path: '/v1/devices', status: 429, body: limited, headers: { 'retry-after': '7' } });
    stubApi(agent, { path: '/v1/devices', body: page([]) });
    expect((await devicesList(agent, clock)).code).toBe(0);
    expect(clock.sleeps).toEqual([7000]);
  });

  it('waits until the HTTP date of Retry-After', async () => {
    const agent = newMockAgent();
    const clock = new FakeClock();
    stubToken(agent, { scope: 'devices_read' });
    const date = new Date(T0.getTime() + 12_000).toUTCString();
    stubApi(agent, { path: '/v1/devices', status: 429, body: limited, headers: { 'retry-after': date } });
    stubApi(agent, { path: '/v1/devices', body: page([]) });
    expect((await devicesList(agent, clock)).code).toBe(0);
    expect(clock.sleeps).toEqual([12_000]);
  });

  it('a 429 still refused after the retries exits 8', async () => {
    const agent = newMockAgent();
    const clock = new FakeClock();
    stubToken(agent, { scope: 'devices_read' });
    stubApi(agent, { path: '/v1/devices', status: 429, body: limited, headers: { 'retry-after': '1' }, times: 4 });
    const result = await devicesList(agent, clock);
    expect(result.code).toBe(8);
    expect(clock.sleeps).toEqual([1000, 1000, 1000]);
  });

  it.each([
    ['a Retry-After beyond the default 60 s', '3600', [], new Date(T0.getTime() + 3600_000)],
    ['a Retry-After beyond --max-retry-wait', '10', ['--max-retry-wait', '5'], new Date(T0.getTime() + 10_000)],
  ])('%s fails at once with exit 8 and says when to try again', async (_name, retryAfter, flags, when) => {
    const agent = newMockAgent();
    const clock = new FakeClock();
    stubToken(agent, { scope: 'devices_read' });
    stubApi(agent, { path: '/v1/devices', status: 429, body: problem(429, 'rate_limit.exceeded', 'Monthly quota exceeded.'), headers: { 'retry-after': retryAfter } });
    const result = await runCli(['devices', 'list', ...flags], { env: ciEnv(tempConfigDir()), agent, clock });
    expect(result.code).toBe(8);
    expect(clock.sleeps).toEqual([]);
    expect(result.stderr).toContain('longer than --max-retry-wait');
    expect(result.stderr).toContain(`try again after ${when.toISOString()}`);
  });
});

/** The client with a fixed token, for methods no foundation command uses yet. */
async function client(agent: MockAgent, clock: FakeClock): Promise<ApiClient> {
  const transport = await createTransport({ timeoutMs: 5000, tracer: silentTracer, dispatcher: agent });
  const tokens: TokenSource = { accessToken: async () => 'tok', invalidate: () => undefined };
  return new ApiClient({
    baseUrl: BASE_URL,
    transport,
    tokens,
    clock,
    tracer: silentTracer,
    retry: DEFAULT_RETRY_POLICY,
    operation: () => {
      throw new Error('not used');
    },
  });
}

describe('which requests are retried', () => {
  const scope = 'thirdparty.api.drivers_write';

  it('a POST without Idempotency-Key is never repeated: 503 fails at once', async () => {
    const agent = newMockAgent();
    const clock = new FakeClock();
    const seen = stubApi(agent, { method: 'POST', path: '/v1/drivers', status: 503, body: unavailable });
    const api = await client(agent, clock);
    const failure = await api.request({ method: 'POST', path: '/v1/drivers', scope, body: { first_name: 'A' } }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ApiError);
    expect((failure as ApiError).exitCode).toBe(9);
    expect(seen).toHaveLength(1);
    expect(clock.sleeps).toEqual([]);
  });

  it('a POST without Idempotency-Key is not repeated after a connection failure either', async () => {
    const agent = newMockAgent();
    const clock = new FakeClock();
    stubConnectionFailure(agent, '/v1/drivers');
    const api = await client(agent, clock);
    await expect(api.request({ method: 'POST', path: '/v1/drivers', scope, body: {} })).rejects.toMatchObject({ exitCode: 9 });
    expect(clock.sleeps).toEqual([]);
  });

  it('a POST with Idempotency-Key is repeated, with the same key', async () => {
    const agent = newMockAgent();
    const clock = new FakeClock();
    const failed = stubApi(agent, { method: 'POST', path: '/v1/devices/reboot', status: 503, body: unavailable });
    const ok = stubApi(agent, { method: 'POST', path: '/v1/devices/reboot', status: 202, body: { status: 'accepted' } });
    const api = await client(agent, clock);
    const answer = await api.request({ method: 'POST', path: '/v1/devices/reboot', scope, body: {}, headers: { 'Idempotency-Key': 'k-1' } });
    expect(answer.status).toBe(202);
    expect(failed[0].headers['idempotency-key']).toBe('k-1');
    expect(ok[0].headers['idempotency-key']).toBe('k-1');
    expect(ok[0].body).toBe('{}');
    expect(clock.sleeps).toHaveLength(1);
  });

  it.each(['PUT', 'DELETE'])('%s is repeated after a 429', async (method) => {
    const agent = newMockAgent();
    const clock = new FakeClock();
    stubApi(agent, { method, path: '/v1/devices/x/assignment', status: 429, body: limited, headers: { 'retry-after': '2' } });
    stubApi(agent, { method, path: '/v1/devices/x/assignment', status: 204 });
    const api = await client(agent, clock);
    const answer = await api.request({ method, path: '/v1/devices/x/assignment', scope });
    expect(answer.status).toBe(204);
    expect(answer.body).toBeUndefined();
    expect(clock.sleeps).toEqual([2000]);
  });
});
