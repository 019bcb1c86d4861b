import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectProblem, startHarness, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ devices: 300 });
});
afterAll(() => h.close());

describe('collection envelope and opaque cursors', () => {
  it('answers {data, next_cursor, has_more} with 50 items by default', async () => {
    const res = await h.call('GET', '/v1/devices');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['data', 'has_more', 'next_cursor']);
    expect(res.body.data).toHaveLength(50);
    expect(res.body.has_more).toBe(true);
    expect(typeof res.body.next_cursor).toBe('string');
  });

  it('accepts limit 1..500 and refuses anything else with 400 request.invalid_parameter', async () => {
    expect((await h.call('GET', '/v1/devices?limit=1')).body.data).toHaveLength(1);
    expect((await h.call('GET', '/v1/devices?limit=500')).status).toBe(200);
    for (const bad of ['0', '501', 'abc', '-1', '2.5', '']) {
      const p = expectProblem(await h.call('GET', `/v1/devices?limit=${bad}`), 400, 'request.invalid_parameter');
      expect(p.invalid_params[0].name).toBe('limit');
    }
  });

  it('pages through every visible device exactly once, ending with has_more false and a null cursor', async () => {
    const devices = await h.all('/v1/devices?limit=37');
    const ids = devices.map((d) => d.id);
    expect(new Set(ids).size).toBe(ids.length);
    const unrelated = h.org('Globex Haulage').id;
    expect(devices.some((d) => d.organization_id === unrelated)).toBe(false);
    const big = await h.call('GET', '/v1/devices?limit=500');
    expect(big.body.has_more).toBe(false);
    expect(big.body.next_cursor).toBeNull();
    expect(big.body.data.map((d: any) => d.id)).toEqual(ids);
  });

  it('keeps a cursor valid when only limit changes', async () => {
    const first = await h.call('GET', '/v1/devices?limit=10');
    const next = await h.call('GET', `/v1/devices?limit=20&cursor=${encodeURIComponent(first.body.next_cursor)}`);
    expect(next.status).toBe(200);
    expect(next.body.data[0].id).not.toBe(first.body.data[9].id);
  });

  it('400 cursor.invalid for a tampered cursor', async () => {
    const first = await h.call('GET', '/v1/devices?limit=5');
    const cursor: string = first.body.next_cursor;
    const [payload, mac] = cursor.split('.');
    const forged = Buffer.from(JSON.stringify({ a: 0, f: JSON.parse(Buffer.from(payload!, 'base64url').toString()).f })).toString('base64url');
    for (const bad of [`${forged}.${mac}`, `${cursor}x`, 'garbage', `${payload}.`]) {
      expectProblem(await h.call('GET', `/v1/devices?limit=5&cursor=${encodeURIComponent(bad)}`), 400, 'cursor.invalid');
    }
  });

  it('400 cursor.invalid for a cursor issued for another query, path or client', async () => {
    const first = await h.call('GET', '/v1/devices?limit=5');
    const cursor = encodeURIComponent(first.body.next_cursor);
    const fleet = first.body.data[0].fleet_id;
    expectProblem(await h.call('GET', `/v1/devices?limit=5&fleet_id=${fleet}&cursor=${cursor}`), 400, 'cursor.invalid');
    expectProblem(await h.call('GET', `/v1/drivers?limit=5&cursor=${cursor}`), 400, 'cursor.invalid');
    const reader = await h.token('sandbox-reader');
    expectProblem(await h.call('GET', `/v1/devices?limit=5&cursor=${cursor}`, { token: reader }), 400, 'cursor.invalid');
  });

  it('pages time-ordered lists (device events) without gaps or repeats', async () => {
    const devices = await h.all('/v1/devices?limit=500');
    let checked = 0;
    for (const d of devices.slice(0, 40)) {
      const all = (await h.call('GET', `/v1/devices/${d.hardware_id}/events?limit=500`)).body.data;
      if (all.length < 3) continue;
      const paged = await h.all(`/v1/devices/${d.hardware_id}/events?limit=2`);
      expect(paged.map((e) => e.event_id)).toEqual(all.map((e: any) => e.event_id));
      checked++;
    }
    expect(checked).toBeGreaterThan(0);
  });
});
