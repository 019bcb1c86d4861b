// What outside, property-based testing of the sandbox found at the edges of HTTP: impossible or unusual dates,
// percent-encoding and empty segments in paths, HEAD, bodies that are not UTF-8, repeated single-valued parameters.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectProblem, startHarness, type Harness } from './harness.js';

let h: Harness;
let hw: string;
beforeAll(async () => {
  h = await startHarness({ devices: 5 });
  hw = (await h.call('GET', '/v1/devices?limit=1')).body.data[0].hardware_id;
});
afterAll(() => h.close());

const invalidParam = async (path: string, method = 'GET') => expectProblem(await h.call(method, path), 400, 'request.invalid_parameter').invalid_params;

describe('date parameters are RFC 3339 date-times of real instants', () => {
  it.each(['2026-02-30T00:00:00Z', '2026-01-01T24:00:00Z', '2026-01-01T00:00:00+24:00', '2016-12-31T12:00:60Z', '2026-01-01 00:00:00Z', '2026-01-01'])(
    'refuses date_from=%s naming date_from',
    async (date) => {
      expect(await invalidParam(`/v1/devices/${hw}/events?date_from=${encodeURIComponent(date)}`)).toEqual([
        { name: 'date_from', reason: 'must be an RFC 3339 date-time with an offset, e.g. 2025-01-31T00:00:00Z' },
      ]);
    },
  );

  it.each(['2016-12-31T23:59:60Z', '2020-01-01T00:00:00.123456789012Z', '2020-01-01t05:30:00+05:30', '2020-01-01T00:00:00-11:00', '2020-01-01T00:00:00z'])(
    'accepts date_from=%s',
    async (date) => {
      const res = await h.call('GET', `/v1/devices/${hw}/events?date_from=${encodeURIComponent(date)}`);
      expect(res.status, res.text).toBe(200);
    },
  );

  it('reads the instant, offset included: a window of one instant in two spellings is empty, and refused', async () => {
    expect(await invalidParam(`/v1/devices/${hw}/events?date_from=2020-01-01T02:00:00%2B02:00&date_to=2020-01-01T00:00:00Z`)).toEqual([
      { name: 'date_to', reason: 'must be after date_from' },
    ]);
  });
});

describe('paths: the template is matched first, its parameters decoded after', () => {
  it('a bad encoding in a parameter is 400 naming the parameter of the template that matched', async () => {
    expect(await invalidParam('/v1/devices/%ZZ/events')).toEqual([{ name: 'hardwareId', reason: 'invalid percent-encoding' }]);
    expect(await invalidParam('/v1/devices/%ZZ')).toEqual([{ name: 'id', reason: 'invalid percent-encoding' }]);
  });

  it('a path no template has is 404, whatever its encoding', async () => {
    expectProblem(await h.call('GET', '/v1/devices/%ZZ/nope'), 404, 'route.not_found');
  });

  it('a method the template does not take is 405, whatever the encoding', async () => {
    const res = await h.call('DELETE', '/v1/devices/%ZZ');
    expectProblem(res, 405, 'method.not_allowed');
    expect(res.headers.get('allow')).toBe('GET, HEAD');
  });

  it('decodes a well-encoded parameter', async () => {
    const res = await h.call('GET', `/v1/devices/${encodeURIComponent(hw).replace(/-/g, '%2D')}/events?limit=1`);
    expect(res.status, res.text).toBe(200);
  });

  it.each(['//x/v1/fleets', '//v1/fleets', '/v1//fleets', '/v1/fleets/', '//sandbox.invalid/v1/fleets'])('%s is 404, not /v1/fleets', async (path) => {
    const raw = await rawRequest(`GET ${path} HTTP/1.1\r\nhost: x\r\nauthorization: Bearer ${await h.token()}\r\nconnection: close\r\n\r\n`);
    expect(raw).toMatch(/^HTTP\/1.1 404 /);
    expect(raw).toContain('"code":"route.not_found"');
  });
});

describe('HEAD', () => {
  it('is served on every GET route: the same status and headers, no body', async () => {
    for (const path of ['/v1/fleets', `/v1/devices/${hw}/events?limit=2`, '/openapi/v1.json', '/v1/devices/nope']) {
      const get = await h.call('GET', path);
      const head = await h.call('HEAD', path);
      expect(head.status, path).toBe(get.status);
      expect(head.text).toBe('');
      for (const name of ['content-type', 'content-length', 'etag', 'allow']) expect(head.headers.get(name), `${path} ${name}`).toBe(get.headers.get(name));
    }
  });

  it('is not allowed where GET is not, and the Allow header lists it only with GET', async () => {
    const res = await h.call('HEAD', `/v1/devices/${hw}/commands/reboot`);
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST');
    expect((await h.call('PATCH', '/v1/fleets')).headers.get('allow')).toBe('GET, HEAD');
  });

  it('is journalled as what it is, without the body it did not send', async () => {
    await h.call('HEAD', '/v1/fleets?limit=3');
    const entries = (await h.call('GET', '/_sandbox/requests?limit=1&bodies=true', { token: null })).body;
    expect(entries[0]).toMatchObject({ method: 'HEAD', path: '/v1/fleets', operation_id: 'listFleets', status: 200, outcome: 'answered', response_body: null });
  });

  it('is answered whole when a fault rule would damage the body it does not have', async () => {
    const rule = (await h.call('POST', '/_sandbox/faults', { token: null, body: { match: { path: '/v1/fleets' }, respond: { body: 'truncated' } } })).body;
    try {
      const head = await h.call('HEAD', '/v1/fleets');
      expect(head.status).toBe(200);
      expect(Number(head.headers.get('content-length'))).toBeGreaterThan(0);
      const entries = (await h.call('GET', '/_sandbox/requests?limit=1', { token: null })).body;
      expect(entries[0]).toMatchObject({ method: 'HEAD', status: 200, outcome: 'answered', fault: rule.id });
    } finally {
      await h.call('DELETE', `/_sandbox/faults/${rule.id}`, { token: null });
    }
  });
});

describe('bodies and single-valued parameters', () => {
  it('refuses a JSON body that is not UTF-8 with 400, storing nothing', async () => {
    const org = h.org('Acme Logistics').id;
    const fleet = (await h.call('GET', `/v1/fleets?organization_id=${org}&limit=1`)).body.data[0];
    const before = await h.all(`/v1/drivers?fleet_id=${fleet.id}`);
    const json = Buffer.from(JSON.stringify({ fleet_id: fleet.id, first_name: 'X', last_name: 'Y' }).replace('"X"', '"X\u0001"'));
    const body = Buffer.concat([json.subarray(0, json.indexOf(1)), Buffer.from([0xff, 0xfe]), json.subarray(json.indexOf(1) + 1)]);
    const res = await fetch(`${h.sb.baseUrl}/v1/drivers`, {
      method: 'POST', body, headers: { authorization: `Bearer ${await h.token()}`, 'content-type': 'application/json' },
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: 'request.invalid_body', detail: 'The request body is not valid UTF-8.' });
    expect(await h.all(`/v1/drivers?fleet_id=${fleet.id}`)).toEqual(before);
  });

  it.each(['limit=1&limit=2', 'limit=2&limit=2', 'cursor=a&cursor=b', 'is_accident=true&is_accident=false'])('refuses %s: given once', async (query) => {
    const name = query.split('=')[0]!;
    expect(await invalidParam(`/v1/devices/${hw}/events?${query}`)).toEqual([{ name, reason: 'must be given once' }]);
  });
});

describe('problem documents are bounded', () => {
  it('a 1 MB body of thousands of unknown fields gets a small problem naming the first, cut', async () => {
    const fleet = (await h.call('GET', '/v1/fleets?limit=1')).body.data[0];
    const body: Record<string, string> = { organization_id: fleet.organization_id, fleet_id: fleet.id, first_name: 'A', last_name: 'B' };
    for (let i = 0; i < 19_998; i++) body[`unknown_${'k'.repeat(i === 0 ? 5_000 : 1)}_${i}`] = 'x';
    const rawBody = JSON.stringify(body);
    expect(rawBody.length).toBeGreaterThan(300_000);
    expect(rawBody.length).toBeLessThan(1_048_576);
    const res = await h.call('POST', '/v1/drivers', { rawBody, headers: { 'content-type': 'application/json' } });
    const p = expectProblem(res, 400, 'request.invalid_body');
    expect(res.text.length).toBeLessThan(4_096);
    expect(p.invalid_params.length).toBeLessThanOrEqual(10);
    expect(p.invalid_params.every((x: { name: string }) => x.name.length <= 200)).toBe(true);
    expect(p.invalid_params[0].name).toMatch(/^unknown_kkk+… \(5\d{3} characters\)$/);
    expect(p.detail.length).toBeLessThanOrEqual(1000);
  });

  it('cuts a detail that would echo a long path', async () => {
    const res = await h.call('GET', `/v1/${'x'.repeat(12_000)}`);
    const p = expectProblem(res, 404, 'route.not_found');
    expect(p.detail.length).toBeLessThanOrEqual(1000);
    expect(p.detail).toMatch(/^No route matches \/v1\/xxx+… \(12\d{3} characters\)$/);
  });
});

async function rawRequest(text: string): Promise<string> {
  const { connect } = await import('node:net');
  const url = new URL(h.sb.baseUrl);
  return new Promise<string>((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname, () => socket.write(text));
    let data = '';
    socket.on('data', (chunk) => (data += chunk));
    socket.on('end', () => resolve(data));
    socket.on('error', reject);
  });
}
