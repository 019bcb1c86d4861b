import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectProblem, startHarness, type Harness } from './harness.js';
import type { WebhookConfigChange } from '../../src/sandbox/index.js';

let h: Harness;
let base: string;
const changes: WebhookConfigChange[] = [];
beforeAll(async () => {
  h = await startHarness();
  h.sb.hooks.onWebhookConfigChange((c) => changes.push(c));
  base = `/v1/organizations/${h.org('Acme Logistics').id}/webhook-config`;
});
afterAll(() => h.close());

const topic = (type: string, url = 'https://hooks.example.com/fleet') => ({ type, is_enabled: true, delivery: { url } });
const ifMatch = (etag: string | null) => ({ 'if-match': etag ?? '' });
const etagOf = async (path = base) => (await h.call('GET', path)).headers.get('etag');

describe('webhook-config state machine', () => {
  it('walks none → disabled → enabled → disabled → none with ETags and If-Match', async () => {
    expectProblem(await h.call('GET', base), 404, 'webhook_config.not_found');
    // spec: first creation omits If-Match and must be disabled
    expectProblem(await h.call('PUT', base, { body: { is_enabled: true, topics: [topic('events')] } }), 422, 'webhook.initial_activation_forbidden');
    const created = await h.call('PUT', base, { body: { is_enabled: false, topics: [topic('events')] } });
    expect(created.status).toBe(201);
    const etag1 = created.headers.get('etag');
    expect(etag1).toMatch(/^"[^"]+"$/);
    expect(created.body).toMatchObject({ is_enabled: false, topics: [topic('events')] });
    expect(created.body.auth_key_hint).toMatch(/^….{4}$/);
    expect(created.body).not.toHaveProperty('auth_key');
    const got = await h.call('GET', base);
    expect(got.headers.get('etag')).toBe(etag1);
    expect(got.body).toEqual(created.body);

    expectProblem(await h.call('PATCH', base, { body: { is_enabled: true } }), 412, 'precondition.required');
    expectProblem(await h.call('PATCH', base, { body: { is_enabled: true }, headers: ifMatch('"stale"') }), 412, 'precondition.failed');
    const enabled = await h.call('PATCH', base, { body: { is_enabled: true }, headers: ifMatch(etag1) });
    expect(enabled.status).toBe(200);
    expect(enabled.body.is_enabled).toBe(true);
    const etag2 = enabled.headers.get('etag');
    expect(etag2).not.toBe(etag1);
    // the old tag is now stale
    expectProblem(await h.call('PATCH', base, { body: { is_enabled: false }, headers: ifMatch(etag1) }), 412, 'precondition.failed');
    const disabled = await h.call('PATCH', base, { body: { is_enabled: false }, headers: ifMatch(etag2) });
    expect(disabled.body.is_enabled).toBe(false);

    expectProblem(await h.call('PUT', base, { body: { is_enabled: false, topics: [topic('alarms')] } }), 412, 'precondition.required');
    const replaced = await h.call('PUT', base, { body: { is_enabled: true, topics: [topic('alarms')] }, headers: ifMatch(disabled.headers.get('etag')) });
    expect(replaced.status).toBe(200);
    expect(replaced.body).toMatchObject({ is_enabled: true, topics: [topic('alarms')] });

    expectProblem(await h.call('DELETE', base), 412, 'precondition.required');
    expect((await h.call('DELETE', base, { headers: ifMatch(replaced.headers.get('etag')) })).status).toBe(204);
    expectProblem(await h.call('GET', base), 404, 'webhook_config.not_found');
    expectProblem(await h.call('PATCH', base, { body: { is_enabled: true }, headers: ifMatch('*') }), 404, 'webhook_config.not_found');
    expect(changes.map((c) => c.kind)).toEqual(['created', 'enabled', 'disabled', 'replaced', 'deleted']);
    expect(changes.at(-1)!.config).toBeNull();
  });

  it('regenerate-auth-key returns auth_key once; GET shows only its hint; a stale If-Match is 412', async () => {
    const created = await h.call('PUT', base, { body: { is_enabled: false, topics: [topic('media')] } });
    const res = await h.call('POST', `${base}/regenerate-auth-key`);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['auth_key']);
    const key: string = res.body.auth_key;
    const got = await h.call('GET', base);
    expect(got.body.auth_key_hint).toBe(`…${key.slice(-4)}`);
    expect(got.text).not.toContain(key);
    expect(changes.at(-1)).toMatchObject({ kind: 'key_rotated' });
    expectProblem(await h.call('POST', `${base}/regenerate-auth-key`, { headers: ifMatch(created.headers.get('etag')) }), 412, 'precondition.failed');
    expect((await h.call('DELETE', base, { headers: ifMatch(got.headers.get('etag')) })).status).toBe(204);
  });

  it('upserts and removes topics; at most 25; removing the last topic is 409', async () => {
    await h.call('PUT', base, { body: { is_enabled: false, topics: [topic('events'), topic('events', 'https://b.example.com/')] } });
    let etag = await etagOf();
    const upsert = await h.call('PUT', `${base}/topics/events`, { body: { delivery: { url: 'https://c.example.com/' } }, headers: ifMatch(etag) });
    expect(upsert.status).toBe(200);
    expect(upsert.body.topics).toEqual([{ type: 'events', is_enabled: true, delivery: { url: 'https://c.example.com/' } }]);
    expect(upsert.headers.get('etag')).toMatch(/^".+"$/);
    etag = upsert.headers.get('etag');
    expectProblem(await h.call('PUT', `${base}/topics/journeys`, { body: { delivery: { url: 'https://d.example.com/' } } }), 412, 'precondition.required');
    const added = await h.call('PUT', `${base}/topics/journeys`, { body: { is_enabled: false, delivery: { url: 'https://d.example.com/' } }, headers: ifMatch(etag) });
    expect(added.body.topics.map((t: any) => t.type)).toEqual(['events', 'journeys']);
    expectProblem(await h.call('PUT', `${base}/topics/parcels`, { body: { delivery: { url: 'https://d.example.com/' } }, headers: ifMatch('*') }), 400, 'request.invalid_parameter');
    expectProblem(await h.call('DELETE', `${base}/topics/parcels`, { headers: ifMatch('*') }), 400, 'request.invalid_parameter');
    const removed = await h.call('DELETE', `${base}/topics/journeys`, { headers: ifMatch(added.headers.get('etag')) });
    expect(removed.status).toBe(200);
    expect(removed.body.topics.map((t: any) => t.type)).toEqual(['events']);
    expectProblem(await h.call('DELETE', `${base}/topics/events`, { headers: ifMatch(removed.headers.get('etag')) }), 409, 'webhook.last_topic');

    const many = Array.from({ length: 26 }, (_, i) => topic('live_gps', `https://h${i}.example.com/`));
    expectProblem(await h.call('PUT', base, { body: { is_enabled: false, topics: many }, headers: ifMatch('*') }), 422, 'webhook.too_many_topics');
    const full = await h.call('PUT', base, { body: { is_enabled: false, topics: many.slice(0, 25) }, headers: ifMatch('*') });
    expect(full.status).toBe(200);
    expectProblem(await h.call('PUT', `${base}/topics/alarms`, { body: { delivery: { url: 'https://x.example.com/' } }, headers: ifMatch('*') }), 422, 'webhook.too_many_topics');
    await h.call('DELETE', base, { headers: ifMatch('*') });
  });

  it('validates callback URLs: absolute https, ≤2048 characters, no literal private hosts in any notation', async () => {
    const put = (url: string) => h.call('PUT', base, { body: { is_enabled: false, topics: [topic('events', url)] } });
    for (const url of ['http://hooks.example.com/', '/relative', 'not a url', `https://example.com/${'a'.repeat(2040)}`]) {
      expectProblem(await put(url), 422, 'webhook.invalid_url');
    }
    for (const url of [
      'https://127.0.0.1/', 'https://0x7f.1/', 'https://2130706433/', 'https://[::ffff:127.0.0.1]/', 'https://[fd00::1]/',
      'https://[::1]/', 'https://10.0.0.1/', 'https://192.168.1.10/', 'https://172.16.0.1/', 'https://169.254.169.254/', 'https://017700000001/',
    ]) {
      const p = expectProblem(await put(url), 422, 'webhook.ssrf_blocked');
      expect(p.invalid_params[0].name).toBe('topics[0].delivery.url');
    }
    expectProblem(await h.call('PUT', base, { body: { is_enabled: false, topics: [{ type: 'weather', delivery: { url: 'https://a.example.com/' } }] } }), 400, 'request.invalid_body');
    expectProblem(await h.call('PUT', base, { body: { is_enabled: false, topics: [] } }), 400, 'request.invalid_body');
    // host names are not resolved at write time
    expect((await put('https://localtest.me/hook')).status).toBe(201);
  });

  it('allows private destinations when allowPrivateWebhooks is on', async () => {
    const dev = await startHarness({ allowPrivateWebhooks: true });
    try {
      const path = `/v1/organizations/${dev.org('Acme Logistics').id}/webhook-config`;
      const res = await dev.call('PUT', path, { body: { is_enabled: false, topics: [topic('events', 'http://127.0.0.1:9000/hook')] } });
      expect(res.status).toBe(201);
    } finally {
      await dev.close();
    }
  });
});
