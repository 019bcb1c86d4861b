// Targeted faults (/_sandbox/faults, --fault FILE): matching, the answers as the spec shapes errors,
// dropped connections, damaged bodies, delays, probability and count, and what a bad rule is told.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { expectProblem, startHarness, type Harness } from './harness.js';
import { suiteTempDir } from '../support/temp-dir.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ devices: 30 });
});
afterAll(() => h.close());
afterEach(async () => {
  await control('DELETE', '/_sandbox/faults');
});

async function control(method: string, path: string, body?: unknown) {
  const res = await fetch(`${h.sb.baseUrl}${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, body: text ? JSON.parse(text) : undefined };
}

const addFault = async (rule: unknown) => {
  const res = await control('POST', '/_sandbox/faults', rule);
  expect(res.status, res.text).toBe(201);
  return res.body;
};
const reboot = (hardwareId: string, key: string) => h.call('POST', `/v1/devices/${hardwareId}/commands/reboot`, { headers: { 'idempotency-key': key } });

describe('targeted faults', () => {
  it('fail one device\'s reboot twice with 503 and Retry-After, then let it through; nothing is executed until then', async () => {
    const rule = await addFault({ match: { operation_id: 'rebootDevice', hardware_id: 'HW-000001' }, respond: { status: 503, retry_after: 3 }, times: 2 });
    expect(rule).toMatchObject({ id: expect.stringMatching(/^f\d+$/), probability: 1, times: 2, hits: 0 });
    for (let i = 0; i < 2; i++) {
      const res = await reboot('HW-000001', 'k-503');
      expectProblem(res, 503, 'service.unavailable');
      expect(res.headers.get('retry-after')).toBe('3');
    }
    expect((await reboot('HW-000002', 'k-other')).status).toBe(202); // another device: not matched
    expect((await reboot('HW-000001', 'k-503')).status).toBe(202);
    const executed = (await control('GET', '/_sandbox/commands')).body.filter((c: { idempotency_key: string }) => c.idempotency_key === 'k-503');
    expect(executed).toHaveLength(1);
    expect((await control('GET', '/_sandbox/faults')).body).toEqual([expect.objectContaining({ id: rule.id, hits: 2 })]);
  });

  it.each([
    [400, 'request.invalid_parameter'], [401, 'auth.token_invalid'], [403, 'auth.scope_missing'], [404, 'resource.not_found'],
    [409, 'resource.conflict'], [412, 'precondition.failed'], [422, 'request.unprocessable'], [429, 'rate_limit.exceeded'],
    [500, 'internal.error'], [503, 'service.unavailable'],
  ])('answer %i as problem+json with the code %s by default', async (status, code) => {
    await addFault({ match: { operation_id: 'listFleets' }, respond: { status }, times: 1 });
    const problem = expectProblem(await h.call('GET', '/v1/fleets'), status, code);
    if (status === 403) expect(problem.required_scope).toBe('thirdparty.api.fleets_read');
    expect((await h.call('GET', '/v1/fleets')).status).toBe(200);
  });

  it('match on method and path pattern, and on client; a given code and detail are used', async () => {
    await addFault({ match: { method: 'GET', path: '/v1/devices/*/last-position', client_id: 'sandbox-reader' }, respond: { status: 429, code: 'quota.exceeded', detail: 'Monthly quota used up.' } });
    const reader = h.as('sandbox-reader');
    const refused = await reader('GET', '/v1/devices/HW-000001/last-position');
    expect(expectProblem(refused, 429, 'quota.exceeded').detail).toBe('Monthly quota used up.');
    expect(refused.headers.get('retry-after')).toBe('1');
    expect((await h.call('GET', '/v1/devices/HW-000001/last-position')).status).not.toBe(429); // admin: not matched
    expect((await reader('GET', '/v1/devices/HW-000001/last-reported')).status).toBe(200); // other path
  });

  it('match a device named by its id in the path, or by the hardware_id filter', async () => {
    const [device, other] = (await h.call('GET', '/v1/devices?limit=2')).body.data;
    await addFault({ match: { hardware_id: device.hardware_id }, respond: { status: 500 } });
    expectProblem(await h.call('GET', `/v1/devices/${device.id}`), 500, 'internal.error');
    expectProblem(await h.call('GET', `/v1/devices?hardware_id=${device.hardware_id}`), 500, 'internal.error');
    expect((await h.call('GET', `/v1/devices/${other.id}`)).status).toBe(200);
  });

  it('target the token endpoint: 401 and 400 as OAuth errors, 503 as a problem', async () => {
    const reader = h.client('sandbox-reader');
    const form = { grant_type: 'client_credentials', client_id: reader.client_id, client_secret: reader.client_secret };
    await addFault({ match: { operation_id: 'requestToken', client_id: 'sandbox-reader' }, respond: { status: 401 }, times: 1 });
    await addFault({ match: { path: '/connect/token' }, respond: { status: 400, code: 'invalid_scope' }, times: 1 });
    await addFault({ match: { operation_id: 'requestToken' }, respond: { status: 503 }, times: 1 });
    const first = await h.tokenRequest(form);
    expect([first.status, first.body.error, first.headers.get('content-type')]).toEqual([401, 'invalid_client', 'application/json']);
    const second = await h.tokenRequest(form);
    expect([second.status, second.body.error]).toEqual([400, 'invalid_scope']);
    expectProblem(await h.tokenRequest(form), 503, 'service.unavailable');
    expect((await h.tokenRequest(form)).status).toBe(200);
  });

  it('drop the connection before anything is done', async () => {
    await addFault({ match: { operation_id: 'rebootDevice' }, respond: { drop: true }, times: 1 });
    await expect(reboot('HW-000002', 'k-drop')).rejects.toThrow();
    const executed = (await control('GET', '/_sandbox/commands')).body.filter((c: { idempotency_key: string }) => c.idempotency_key === 'k-drop');
    expect(executed).toEqual([]);
  });

  it('damage the answer after the request is carried out: truncated, or malformed with the length it says', async () => {
    await addFault({ match: { operation_id: 'rebootDevice', hardware_id: 'HW-000010' }, respond: { body: 'truncated' }, times: 1 });
    await expect(reboot('HW-000010', 'k-cut').then((res) => res.text)).rejects.toThrow();
    const executed = (await control('GET', '/_sandbox/commands')).body.filter((c: { idempotency_key: string }) => c.idempotency_key === 'k-cut');
    expect(executed).toHaveLength(1);
    // a retry with the same key replays the original answer, in full
    const replay = await reboot('HW-000010', 'k-cut');
    expect([replay.status, replay.headers.get('idempotent-replayed')]).toEqual([202, 'true']);

    await addFault({ match: { operation_id: 'listFleets' }, respond: { body: 'malformed' }, times: 1 });
    const res = await fetch(`${h.sb.baseUrl}/v1/fleets`, { headers: { authorization: `Bearer ${await h.token()}` } });
    const text = await res.text();
    expect(res.status).toBe(200);
    expect(Number(res.headers.get('content-length'))).toBe(Buffer.byteLength(text));
    expect(() => JSON.parse(text)).toThrow();
  });

  it('delay, then answer normally', async () => {
    await addFault({ match: { operation_id: 'getFleet' }, respond: { delay_ms: 300 }, times: 1 });
    const fleet = (await h.call('GET', '/v1/fleets?limit=1')).body.data[0];
    const started = performance.now();
    expect((await h.call('GET', `/v1/fleets/${fleet.id}`)).status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(280);
  });

  it('apply to a share of the matches, drawn from the seed: the same seed, the same requests fail', async () => {
    const pattern = async (harness: Harness) => {
      await fetch(`${harness.sb.baseUrl}/_sandbox/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ match: { operation_id: 'listFleets' }, respond: { status: 503 }, probability: 0.5 }) });
      const statuses: number[] = [];
      for (let i = 0; i < 40; i++) statuses.push((await harness.call('GET', '/v1/fleets?limit=1')).status);
      return statuses;
    };
    const [a, b] = await Promise.all([startHarness({ devices: 5, seed: 3 }), startHarness({ devices: 5, seed: 3 })]);
    try {
      const first = await pattern(a);
      expect(await pattern(b)).toEqual(first);
      const failed = first.filter((s) => s === 503).length;
      expect(failed).toBeGreaterThan(8);
      expect(failed).toBeLessThan(32);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it('try rules in order: the first that matches answers; remove one or all', async () => {
    const first = await addFault({ match: { operation_id: 'listFleets' }, respond: { status: 500 } });
    await addFault({ match: { operation_id: 'listFleets' }, respond: { status: 503 } });
    expectProblem(await h.call('GET', '/v1/fleets'), 500, 'internal.error');
    expect((await control('DELETE', `/_sandbox/faults/${first.id}`)).status).toBe(204);
    expectProblem(await h.call('GET', '/v1/fleets'), 503, 'service.unavailable');
    expectProblem(await control('DELETE', `/_sandbox/faults/${first.id}`) as never, 404, 'fault.not_found');
    expect((await control('DELETE', '/_sandbox/faults')).status).toBe(204);
    expect((await control('GET', '/_sandbox/faults')).body).toEqual([]);
    expect((await h.call('GET', '/v1/fleets')).status).toBe(200);
  });

  it.each([
    [{ respond: { status: 418 } }, 'respond.status', 'must be one of 400, 401, 403, 404, 409, 412, 422, 429, 500, 503'],
    [{ respond: {} }, 'respond', 'must NOT have fewer than 1 properties'],
    [{ respond: { status: 503, drop: true } }, 'respond', 'give one of status, drop or body, not status and drop'],
    [{ respond: { status: 500, retry_after: 5 } }, 'respond.retry_after', 'goes with status 429 or 503 only'],
    [{ respond: { drop: true, code: 'x.y' } }, 'respond.code', 'goes with status only'],
    [{ match: { operation_id: 'rebootDevices' }, respond: { drop: true } }, 'match.operation_id', 'rebootDevices is no operation of the API'],
    [{ match: { hardwareId: 'HW-1' }, respond: { drop: true } }, 'match.hardwareId', 'is not a known member'],
    [{ respond: { drop: true }, times: 0 }, 'times', 'must be >= 1'],
    [{ respond: { drop: true }, probability: 0 }, 'probability', 'must be > 0'],
  ])('refuse %j naming %s', async (rule, member, reason) => {
    const res = await control('POST', '/_sandbox/faults', rule);
    const problem = expectProblem(res as never, 400, 'request.invalid_body');
    expect(problem.invalid_params[0].name).toBe(member);
    expect(problem.invalid_params[0].reason).toContain(reason);
  });
});

describe('fault rules from a file at start', () => {
  const dir = suiteTempDir('fleetctl-faults-');

  it('loads a YAML list (or {faults: [...]}) and applies it from the first request', async () => {
    const file = path.join(dir, 'faults.yaml');
    writeFileSync(file, '# slow token endpoint, flaky fleets\n- match: {operation_id: requestToken}\n  respond: {delay_ms: 10}\n- match: {operation_id: listFleets}\n  respond: {status: 503}\n  times: 1\n');
    const loaded = await startHarness({ devices: 5, faultFile: file, faults: [{ respond: { status: 500 }, match: { operation_id: 'getFleet' } }] });
    try {
      expectProblem(await loaded.call('GET', '/v1/fleets'), 503, 'service.unavailable');
      expect((await loaded.call('GET', '/v1/fleets')).status).toBe(200);
      const rules = await (await fetch(`${loaded.sb.baseUrl}/_sandbox/faults`)).json();
      expect(rules.map((r: { match: { operation_id: string } }) => r.match.operation_id)).toEqual(['getFleet', 'requestToken', 'listFleets']);
    } finally {
      await loaded.close();
    }
  });

  it.each([
    ['bad.yaml', '- respond: {status: 503, drop: true}\n', 'bad.yaml: [0].respond: give one of status, drop or body, not status and drop'],
    ['bad.json', '{"faults": [{"respond": {"status": 999}}]}', 'bad.json: faults[0].respond.status: must be one of 400'],
    ['broken.yaml', '- respond: {status: 503\n', 'broken.yaml is not valid YAML (line 2, column 1): Flow map in block collection must be sufficiently indented and end with a }'],
    ['missing.yaml', null, 'cannot read the fault file'],
  ])('refuses %s with one line naming the member', async (name, content, message) => {
    const file = path.join(dir, name);
    if (content !== null) writeFileSync(file, content);
    await expect(startHarness({ faultFile: file })).rejects.toMatchObject({ exitCode: 2, message: expect.stringContaining(message) });
  });
});
