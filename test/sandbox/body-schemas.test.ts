// Request bodies are checked by the document's schemas: a mistake is 400 request.invalid_body whose invalid_params
// name the member by its path, and the document's bounds are the sandbox's (no rule of its own beside them).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectProblem, startHarness, type Harness } from './harness.js';

let h: Harness;
let fleet: { id: string; organization_id: string };
beforeAll(async () => {
  h = await startHarness();
  fleet = (await h.all('/v1/fleets'))[0];
});
afterAll(() => h.close());

const driver = (extra: Record<string, unknown>) => ({ organization_id: fleet.organization_id, fleet_id: fleet.id, first_name: 'A', last_name: 'B', ...extra });
const invalidParams = (res: { body: { invalid_params?: unknown } }) => res.body.invalid_params;

describe('request bodies against the document', () => {
  it('names the member of a driver that breaks its schema, in the document\'s words', async () => {
    const long = await h.call('POST', '/v1/drivers', { body: driver({ phone: '1'.repeat(65) }) });
    expectProblem(long, 400, 'request.invalid_body');
    expect(invalidParams(long)).toEqual([{ name: 'phone', reason: 'must be null or a string of 1 to 64 characters, not all blank' }]);
    const blank = await h.call('POST', '/v1/drivers', { body: driver({ first_name: '   ' }) });
    expect(invalidParams(blank)).toEqual([{ name: 'first_name', reason: 'must be a string of 1 to 100 characters, not all blank' }]);
    expect((await h.call('POST', '/v1/drivers', { body: driver({ phone: '1'.repeat(64), email: 'ada@example.com' }) })).status).toBe(201);
  });

  it('refuses unknown members of nested topic objects, and an empty topic list, naming the path', async () => {
    const org = fleet.organization_id;
    const base = `/v1/organizations/${org}/webhook-config`;
    const nested = await h.call('PUT', base, { body: { is_enabled: false, topics: [{ type: 'events', delivery: { url: 'https://a.example.com/', secret: 'x' } }] } });
    expectProblem(nested, 400, 'request.invalid_body');
    expect(invalidParams(nested)).toEqual([{ name: 'topics[0].delivery.secret', reason: 'is not a known member' }]);
    const empty = await h.call('PUT', base, { body: { is_enabled: false, topics: [] } });
    expect(invalidParams(empty)).toEqual([{ name: 'topics', reason: 'must list at least 1 item(s)' }]);
  });

  it('answers the spec\'s own codes where it has them: too many topics, a refused URL', async () => {
    const base = `/v1/organizations/${fleet.organization_id}/webhook-config`;
    const many = Array.from({ length: 26 }, (_, i) => ({ type: 'events', delivery: { url: `https://a.example.com/${i}` } }));
    expectProblem(await h.call('PUT', base, { body: { is_enabled: false, topics: many } }), 422, 'webhook.too_many_topics');
    const notUrl = await h.call('PUT', base, { body: { is_enabled: false, topics: [{ type: 'events', delivery: { url: 'not a url' } }] } });
    expectProblem(notUrl, 422, 'webhook.invalid_url');
    expect(invalidParams(notUrl)).toEqual([expect.objectContaining({ name: 'topics[0].delivery.url' })]);
    const tooLong = await h.call('PUT', base, { body: { is_enabled: false, topics: [{ type: 'events', delivery: { url: `https://a.example.com/${'x'.repeat(2048)}` } }] } });
    expectProblem(tooLong, 422, 'webhook.invalid_url');
  });
});
