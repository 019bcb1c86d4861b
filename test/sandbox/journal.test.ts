// The request journal (GET /_sandbox/requests): what it records of API and token requests, that no secret
// is ever kept, its filters, and that it stays within its size.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectProblem, startHarness, type Harness } from './harness.js';
import { RequestJournal, type NewJournalEntry } from '../../src/sandbox/journal/journal.js';
import { MAX_JOURNAL_BODY_CHARS, redactedBody } from '../../src/sandbox/journal/capture.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ devices: 30 });
});
afterAll(() => h.close());

const journal = async (query = '') => (await fetch(`${h.sb.baseUrl}/_sandbox/requests${query}`)).json() as Promise<any[]>;

describe('GET /_sandbox/requests', () => {
  it('records what a client sent and got: method, path, query, operation, client, status, duration, Idempotency-Key, If-Match', async () => {
    const token = await h.token('sandbox-admin');
    const devices = await h.call('GET', '/v1/devices?limit=2&organization_id=' + h.org('Acme Logistics').id);
    const hw = devices.body.data[0].hardware_id;
    await h.call('POST', `/v1/devices/${hw}/commands/reboot`, { headers: { 'idempotency-key': 'journal-1' } });
    await h.call('PATCH', `/v1/organizations/${h.org('Acme Logistics').id}/webhook-config`, { headers: { 'if-match': '"stale"' }, body: { is_enabled: true } });
    const entries = await journal('?after=0');
    const [list, reboot, patch] = entries.slice(-3);
    expect(list).toMatchObject({
      method: 'GET', path: '/v1/devices', query: `limit=2&organization_id=${h.org('Acme Logistics').id}`, operation_id: 'listDevices',
      client_id: 'sandbox-admin', status: 200, outcome: 'answered', authorization: 'Bearer [REDACTED]', fault: null, idempotency_key: null,
    });
    expect(list.duration_ms).toBeGreaterThanOrEqual(0);
    expect(list).not.toHaveProperty('request_body');
    expect(reboot).toMatchObject({ operation_id: 'rebootDevice', hardware_id: hw, status: 202, idempotency_key: 'journal-1' });
    expect(patch).toMatchObject({ operation_id: 'updateWebhookConfig', status: 404, if_match: '"stale"' });
    expect(entries.map((e) => e.id)).toEqual([...entries.map((e) => e.id)].sort((a, b) => a - b));
    expect(JSON.stringify(entries)).not.toContain(token);
    // control routes are not API requests
    expect(entries.some((e) => e.path.startsWith('/_sandbox/'))).toBe(false);
  });

  it('never keeps a secret: the client secret, the issued token and a rotated webhook key are redacted, bodies included', async () => {
    const admin = h.client('sandbox-admin');
    const issued = await h.tokenRequest({ grant_type: 'client_credentials', client_id: admin.client_id, client_secret: admin.client_secret, scope: 'thirdparty.api.webhooks_write thirdparty.api.webhooks_read' });
    const token: string = issued.body.access_token;
    const org = h.org('Acme Logistics North').id;
    const auth = { authorization: `Bearer ${token}` };
    await h.call('PUT', `/v1/organizations/${org}/webhook-config`, { token: null, headers: auth, body: { is_enabled: false, topics: [{ type: 'events', is_enabled: true, delivery: { url: 'https://hooks.example.com/x' } }] } });
    const etag = (await h.call('GET', `/v1/organizations/${org}/webhook-config`, { token: null, headers: auth })).headers.get('etag')!;
    const rotated = await h.call('POST', `/v1/organizations/${org}/webhook-config/regenerate-auth-key`, { token: null, headers: { ...auth, 'if-match': etag } });
    const key: string = rotated.body.auth_key;
    expect(key).toBeTruthy();
    await fetch(`${h.sb.baseUrl}/v1/fleets?client_secret=${encodeURIComponent(admin.client_secret)}&limit=1`, { headers: { authorization: `Basic ${Buffer.from('x:y').toString('base64')}` } });
    const entries = await journal('?bodies=true');
    const text = JSON.stringify(entries);
    for (const secret of [admin.client_secret, token, key]) expect(text).not.toContain(secret);
    const tokenEntry = entries.find((e) => e.operation_id === 'requestToken' && e.status === 200 && e.request_body?.includes('webhooks_write'));
    expect(tokenEntry.request_body).toContain('client_secret=[REDACTED]');
    expect(JSON.parse(tokenEntry.response_body)).toMatchObject({ access_token: '[REDACTED]', token_type: 'Bearer' });
    expect(JSON.parse(entries.find((e) => e.operation_id === 'regenerateWebhookAuthKey').response_body).auth_key).toBe('[REDACTED]');
    const basic = entries.find((e) => e.path === '/v1/fleets' && e.authorization?.startsWith('Basic'));
    expect(basic).toMatchObject({ authorization: 'Basic [REDACTED]', status: 401, query: 'client_secret=[REDACTED]&limit=1' });
  });

  it('filters by operation, client, device, status (exact, class, dropped), after an id, the latest N', async () => {
    const reader = h.as('sandbox-reader');
    await reader('GET', '/v1/fleets?limit=1');
    await reader('GET', '/v1/devices/NO-SUCH-DEVICE/last-reported');
    const byClient = await journal('?client_id=sandbox-reader');
    expect(byClient.length).toBeGreaterThanOrEqual(2);
    expect(byClient.every((e) => e.client_id === 'sandbox-reader')).toBe(true);
    expect((await journal('?operation_id=getDeviceLastReported&hardware_id=NO-SUCH-DEVICE')).map((e) => e.status)).toEqual([404]);
    expect((await journal('?status=4xx')).every((e) => e.status >= 400 && e.status < 500)).toBe(true);
    expect((await journal('?status=404')).every((e) => e.status === 404)).toBe(true);
    expect(await journal('?status=dropped')).toEqual([]);
    const all = await journal();
    const lastTwo = await journal('?limit=2');
    expect(lastTwo.map((e) => e.id)).toEqual(all.slice(-2).map((e) => e.id));
    expect((await journal(`?after=${all.at(-2).id}`)).map((e) => e.id)).toEqual([all.at(-1).id]);
    expectProblem(await h.call('GET', '/_sandbox/requests?status=5x', { token: null }), 400, 'request.invalid_parameter');
  });
});

describe('RequestJournal', () => {
  const entry = (n: number): NewJournalEntry => ({
    at: new Date(0).toISOString(), method: 'GET', path: `/v1/x/${n}`, query: '', operation_id: 'op', client_id: n % 2 ? 'odd' : 'even',
    hardware_id: null, status: 200, outcome: 'answered', duration_ms: 1, idempotency_key: null, if_match: null, authorization: null,
    fault: null, request_body: null, response_body: null,
  });

  it('keeps the latest entries only, ids going on', () => {
    const j = new RequestJournal(5);
    for (let n = 1; n <= 12; n++) j.record(entry(n));
    expect(j.list().map((e) => e.id)).toEqual([8, 9, 10, 11, 12]);
    expect(j.list({ clientId: 'odd' }).map((e) => e.path)).toEqual(['/v1/x/9', '/v1/x/11']);
    expect(j.list({ after: 10 }).map((e) => e.id)).toEqual([11, 12]);
  });

  it('cuts long bodies after 8 KiB, saying how much more there was', () => {
    const long = Buffer.from(JSON.stringify({ data: 'x'.repeat(100_000) }));
    const cut = redactedBody(long, 'application/json')!;
    expect(cut.length).toBeLessThan(MAX_JOURNAL_BODY_CHARS + 40);
    expect(cut).toMatch(/… \(\d+ more bytes\)$/);
    const secretLate = Buffer.from(JSON.stringify({ data: 'x'.repeat(100_000), access_token: 'sbx_at_secret' }));
    expect(redactedBody(secretLate, 'application/json')).not.toContain('sbx_at_secret');
    expect(redactedBody(Buffer.from('{"access_token": "sbx_at_secret"'), 'application/json')).not.toContain('sbx_at_secret');
    expect(redactedBody(Buffer.from([0xff, 0xd8]), 'image/jpeg')).toBe('(2 bytes of image/jpeg)');
  });
});
