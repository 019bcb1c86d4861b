import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectProblem, startHarness, type Harness } from './harness.js';

let h: Harness;
let devices: any[];
let clock = Date.parse('2025-06-01T12:00:00Z');
const iso = (ms: number) => new Date(ms).toISOString();
const from = () => iso(clock - 31 * 86_400_000);
const to = () => iso(clock + 60_000);
beforeAll(async () => {
  h = await startHarness({ now: () => new Date(clock) });
  devices = await h.all('/v1/devices?limit=500');
});
afterAll(() => h.close());

const eventsOf = async (hw: string, query = '') => h.all(`/v1/devices/${hw}/events?limit=500${query}`);

describe('device events', () => {
  it('spread over the last 30 days with accidents, important events and several types', async () => {
    const all = (await Promise.all(devices.slice(0, 60).map((d) => eventsOf(d.hardware_id)))).flat();
    expect(all.length).toBeGreaterThan(50);
    expect(all.every((e) => Date.parse(e.triggered_at) >= clock - 30 * 86_400_000 && Date.parse(e.triggered_at) <= clock)).toBe(true);
    expect(all.some((e) => e.is_accident)).toBe(true);
    expect(all.some((e) => e.is_important && !e.is_accident)).toBe(true);
    expect(new Set(all.flatMap((e) => e.event_types)).size).toBeGreaterThan(4);
  });

  it('filters by date window, event_types (repeated or comma-separated), is_accident, is_important', async () => {
    const d = devices.find((x) => x.last_seen_at);
    const all = await eventsOf(d.hardware_id);
    const mid = clock - 15 * 86_400_000;
    const recent = await eventsOf(d.hardware_id, `&date_from=${iso(mid)}`);
    expect(recent).toEqual(all.filter((e) => Date.parse(e.triggered_at) >= mid));
    const many = (await Promise.all(devices.slice(0, 40).map((x) => eventsOf(x.hardware_id, '&is_accident=true')))).flat();
    expect(many.length).toBeGreaterThan(0);
    expect(many.every((e) => e.is_accident && e.event_types.includes('collision'))).toBe(true);
    const important = (await Promise.all(devices.slice(0, 20).map((x) => eventsOf(x.hardware_id, '&is_important=false')))).flat();
    expect(important.every((e) => !e.is_important)).toBe(true);
    const typed = (await Promise.all(devices.slice(0, 40).map((x) => eventsOf(x.hardware_id, '&event_types=speeding,idling&event_types=collision')))).flat();
    expect(typed.length).toBeGreaterThan(0);
    expect(typed.every((e) => e.event_types.some((t: string) => ['speeding', 'idling', 'collision'].includes(t)))).toBe(true);
    expectProblem(await h.call('GET', `/v1/devices/${d.hardware_id}/events?is_accident=yes`), 400, 'request.invalid_parameter');
    expectProblem(await h.call('GET', `/v1/devices/${d.hardware_id}/events?date_from=yesterday`), 400, 'request.invalid_parameter');
    expectProblem(await h.call('GET', `/v1/devices/${d.hardware_id}/events?date_from=${to()}&date_to=${from()}`), 400, 'request.invalid_parameter');
  });
});

describe('events search GET /v1/events', () => {
  it('400 events.filter_required without a narrowing filter or a date window, naming what is missing', async () => {
    const window = `date_from=${from()}&date_to=${to()}`;
    expect(expectProblem(await h.call('GET', `/v1/events?${window}`), 400, 'events.filter_required').detail).toMatch(/narrowing filter/);
    expect(expectProblem(await h.call('GET', `/v1/events?hardware_id=HW-000001&date_from=${from()}`), 400, 'events.filter_required').detail).toMatch(/date_to/);
    const p = expectProblem(await h.call('GET', '/v1/events?hardware_id=HW-000001'), 400, 'events.filter_required');
    expect(p.detail).toMatch(/date_from/);
    expect(p.detail).toMatch(/date_to/);
  });

  it('finds events by hardware_id, fleet_ids and vehicle_ids', async () => {
    const window = `date_from=${from()}&date_to=${to()}`;
    const d = devices.find((x) => x.vehicle_id && x.last_seen_at);
    const own = await eventsOf(d.hardware_id);
    const byHw = await h.all(`/v1/events?hardware_id=${d.hardware_id}&${window}&limit=3`);
    expect(byHw.map((e) => e.event_id)).toEqual(own.map((e) => e.event_id));
    const byVehicle = await h.all(`/v1/events?vehicle_ids=${d.vehicle_id}&${window}`);
    expect(byVehicle.map((e) => e.event_id)).toEqual(own.map((e) => e.event_id));
    const fleetA = devices[0].fleet_id;
    const fleetB = devices.find((x) => x.fleet_id !== fleetA).fleet_id;
    const byFleets = await h.all(`/v1/events?fleet_ids=${fleetA},${fleetB}&${window}&limit=7`);
    expect(byFleets.length).toBeGreaterThan(0);
    expect(byFleets.every((e) => e.fleet_id === fleetA || e.fleet_id === fleetB)).toBe(true);
    const times = byFleets.map((e) => Date.parse(e.triggered_at));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    expectProblem(await h.call('GET', `/v1/events?fleet_ids=nope&${window}`), 400, 'request.invalid_parameter');
  });

  it('never returns another tenant\'s events', async () => {
    const child = await h.token('sandbox-child');
    const tenant = new Set([h.org('Acme Logistics North').id, h.org('Acme North Depot').id]);
    const outside = devices.find((d) => !tenant.has(d.organization_id) && d.last_seen_at);
    const res = await h.call('GET', `/v1/events?hardware_id=${outside.hardware_id}&date_from=${from()}&date_to=${to()}`, { token: child });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([]);
  });
});

describe('GET /v1/events/{eventId}', () => {
  it('resolves the opaque base64url(hardware_id~uuid) id to the full record', async () => {
    const d = devices.find((x) => x.last_seen_at);
    const [summary] = await eventsOf(d.hardware_id);
    const decoded = Buffer.from(summary.event_id, 'base64url').toString();
    expect(decoded.startsWith(`${d.hardware_id}~`)).toBe(true);
    const res = await h.call('GET', `/v1/events/${summary.event_id}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ event_id: summary.event_id, hardware_id: d.hardware_id, triggered_at: summary.triggered_at });
    expect(Array.isArray(res.body.locations)).toBe(true);
    expect(Array.isArray(res.body.media_ids)).toBe(true);
  });

  it('a malformed or unknown event id is a 404 with a code, never a 500', async () => {
    const unknown = Buffer.from('HW-000001~7c9e6679-7425-40de-944b-e07fc1f90ae7').toString('base64url');
    for (const id of ['%%%', 'bm90LWFuLWV2ZW50', unknown, Buffer.from('NO-SUCH~7c9e6679-7425-40de-944b-e07fc1f90ae7').toString('base64url'), 'a'.repeat(500)]) {
      expectProblem(await h.call('GET', `/v1/events/${encodeURIComponent(id)}`), 404, 'resource.not_found');
    }
  });
});

describe('media', () => {
  const findMedia = async () => {
    for (const d of devices) {
      const media = (await h.call('GET', `/v1/devices/${d.hardware_id}/media`)).body.data;
      const withEvent = media.find((m: any) => m.event_id);
      if (withEvent) return withEvent;
    }
    throw new Error('no media');
  };

  it('lists device media with signed, expiring download URLs served by the sandbox without a token', async () => {
    const item = await findMedia();
    expect(item.download_url.startsWith(`${h.sb.baseUrl}/_sandbox/media/${item.id}?expires=`)).toBe(true);
    expect(Date.parse(item.download_url_expires_at)).toBeGreaterThan(clock);
    const res = await fetch(item.download_url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe(item.mime_type);
    expect(res.headers.get('content-length')).toBe(String(item.size_bytes));
    expect((await res.arrayBuffer()).byteLength).toBe(item.size_bytes);
  });

  it('refuses a bad signature, an expired link (403) and a bearer token (400)', async () => {
    const item = await findMedia();
    const bad = item.download_url.replace(/signature=[^&]+/, 'signature=AAAA');
    const badRes = await fetch(bad);
    expect(badRes.status).toBe(403);
    expect(badRes.headers.get('content-type')).toBe('application/problem+json');
    const withToken = await fetch(item.download_url, { headers: { authorization: `Bearer ${await h.token()}` } });
    expect(withToken.status).toBe(400);
    clock += 16 * 60_000;
    try {
      const expired = await fetch(item.download_url);
      expect(expired.status).toBe(403);
      expect((await expired.json()).code).toBe('media.link_expired');
    } finally {
      clock -= 16 * 60_000;
    }
  });

  it('lists the media of an event with GET /v1/events/{eventId}/media', async () => {
    const item = await findMedia();
    const res = await h.call('GET', `/v1/events/${item.event_id}/media`);
    expect(res.status).toBe(200);
    expect(res.body.data.map((m: any) => m.id)).toContain(item.id);
    expect(res.body.data.every((m: any) => m.event_id === item.event_id)).toBe(true);
    const event = (await h.call('GET', `/v1/events/${item.event_id}`)).body;
    expect(event.media_ids).toContain(item.id);
  });
});

describe('journeys', () => {
  it('needs exactly one of hardware_id, vehicle_id, fleet_id and a window; lists journeys in it', async () => {
    expectProblem(await h.call('GET', `/v1/journeys?date_from=${from()}&date_to=${to()}`), 400, 'request.invalid_parameter');
    expectProblem(await h.call('GET', `/v1/journeys?hardware_id=HW-000001`), 400, 'request.invalid_parameter');
    const res = await h.all(`/v1/journeys?fleet_id=${devices[0].fleet_id}&date_from=${from()}&date_to=${to()}&limit=5`);
    expect(res.length).toBeGreaterThan(0);
    expect(res.every((j) => j.fleet_id === devices[0].fleet_id)).toBe(true);
  });
});
