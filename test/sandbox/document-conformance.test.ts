// Every answer of the sandbox matches the OpenAPI document: the status is documented for the operation,
// and the body validates against the documented schema (problems against Problem).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATIONS, matchOperation } from '../../src/openapi/operations.js';
import { API_DOCUMENT, checkShape } from '../../src/openapi/schema-check.js';
import document from '../../src/openapi/v1.json' with { type: 'json' };
import { startHarness, type CallResult, type Harness } from './harness.js';

type Json = Record<string, any>;

/** The components.schemas name of an operation's answer for a status and media type (the document's are all $refs). */
function responseSchemaName(method: string, path: string, status: number, mediaType: string): string | undefined {
  const doc = document as Json;
  let response = doc.paths[path]?.[method.toLowerCase()]?.responses?.[String(status)];
  if (response?.$ref) response = doc.components.responses[response.$ref.split('/').pop()];
  return response?.content?.[mediaType]?.schema?.$ref?.split('/').pop();
}

let h: Harness;
const seen = new Set<string>();
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

async function conform(method: string, url: string, opts: Parameters<Harness['call']>[2] = {}): Promise<CallResult> {
  const res = await h.call(method, url, opts);
  const op = matchOperation(method, url);
  expect(op, `${method} ${url} is not in the document`).toBeDefined();
  const type = res.headers.get('content-type') ?? '';
  if (res.status === 204) {
    expect(res.text).toBe('');
  } else {
    const schema = responseSchemaName(method, op!.path, res.status, type);
    expect(schema, `${op!.operationId}: ${res.status} ${type} is not documented`).toBeDefined();
    expect(await checkShape(API_DOCUMENT, schema!, res.body), `${op!.operationId} ${res.status}`).toBeNull();
  }
  seen.add(op!.operationId);
  return res;
}

describe('answers match the OpenAPI document', () => {
  // ajv compiles each response schema on first use: about a second or two, more on a busy machine
  it('for every operation, successes and typical errors; every documented operation is exercised', { timeout: 30_000 }, async () => {
    const devices = (await conform('GET', '/v1/devices?limit=100')).body.data;
    const d = devices.find((x: any) => x.last_seen_at && x.vehicle_id && x.capabilities.length === 2);
    await conform('GET', `/v1/devices/${d.id}`);
    await conform('GET', '/v1/devices/not-a-uuid');
    await conform('GET', `/v1/devices/${d.hardware_id}/last-reported`);
    await conform('GET', `/v1/devices/${devices.find((x: any) => !x.last_seen_at).hardware_id}/last-reported`);
    const positions = await Promise.all(devices.slice(0, 12).map((x: any) => conform('GET', `/v1/devices/${x.hardware_id}/last-position`)));
    expect(new Set(positions.map((p) => p.status))).toEqual(new Set([200, 404]));
    const events = (await conform('GET', `/v1/devices/${d.hardware_id}/events`)).body.data;
    await conform('GET', `/v1/devices/${d.hardware_id}/media`);
    const vehicle = (await conform('GET', `/v1/vehicles?organization_id=${d.organization_id}`)).body.data[0];
    await conform('GET', `/v1/vehicles/${vehicle.id}`);
    await conform('PUT', `/v1/devices/${d.id}/assignment`, { body: { vehicle_id: vehicle.id } });
    await conform('PUT', `/v1/devices/${d.id}/assignment`, { body: { vehicle: 1 } });
    await conform('DELETE', `/v1/devices/${d.id}/assignment`);
    await conform('POST', `/v1/devices/${d.hardware_id}/commands/reboot`, { headers: { 'idempotency-key': 'doc-1' } });
    await conform('POST', `/v1/devices/${d.hardware_id}/commands/reboot`, { headers: { 'idempotency-key': 'doc-1' }, body: { x: 1 } });
    await conform('POST', `/v1/devices/${d.hardware_id}/commands/wake-up`, { headers: { 'idempotency-key': 'doc-2' } });
    await conform('POST', `/v1/devices/${d.hardware_id}/commands/wake-up`, {});
    const fleets = (await conform('GET', '/v1/fleets')).body.data;
    await conform('GET', `/v1/fleets/${fleets[0].id}`);
    const drivers = (await conform('GET', '/v1/drivers')).body.data;
    await conform('GET', `/v1/drivers/${drivers[0].id}`);
    await conform('PUT', `/v1/drivers/${drivers[0].id}`, { body: { status: 'inactive' } });
    await conform('POST', '/v1/drivers', { body: { organization_id: fleets[0].organization_id, fleet_id: fleets[0].id, first_name: 'A', last_name: 'B' } });
    const now = Date.now();
    const window = `date_from=${new Date(now - 31 * 86_400_000).toISOString()}&date_to=${new Date(now + 60_000).toISOString()}`;
    await conform('GET', `/v1/events?fleet_ids=${d.fleet_id}&${window}`);
    await conform('GET', `/v1/events?${window}`);
    if (events.length > 0) {
      await conform('GET', `/v1/events/${events[0].event_id}`);
      await conform('GET', `/v1/events/${events[0].event_id}/media`);
    }
    await conform('GET', '/v1/events/xyz');
    await conform('GET', `/v1/journeys?hardware_id=${d.hardware_id}&${window}`);
    const orgs = (await conform('GET', '/v1/organizations')).body.data;
    await conform('GET', `/v1/organizations/${orgs[0].id}`);
    await conform('GET', `/v1/organizations/${orgs[0].id}/descendants`);
    const wc = `/v1/organizations/${orgs[0].id}/webhook-config`;
    await conform('GET', wc);
    const topic = (type: string) => ({ type, is_enabled: true, delivery: { url: 'https://hooks.example.com/' } });
    await conform('PUT', wc, { body: { is_enabled: true, topics: [topic('events')] } });
    await conform('PUT', wc, { body: { is_enabled: false, topics: [topic('events')] } });
    await conform('PATCH', wc, { body: { is_enabled: true }, headers: { 'if-match': '"stale"' } });
    await conform('PATCH', wc, { body: { is_enabled: true }, headers: { 'if-match': '*' } });
    await conform('PUT', wc, { body: { is_enabled: true, topics: [topic('events')] }, headers: { 'if-match': '*' } });
    await conform('PUT', `${wc}/topics/alarms`, { body: { delivery: { url: 'https://hooks.example.com/a' } }, headers: { 'if-match': '*' } });
    await conform('DELETE', `${wc}/topics/alarms`, { headers: { 'if-match': '*' } });
    await conform('DELETE', `${wc}/topics/events`, { headers: { 'if-match': '*' } });
    await conform('POST', `${wc}/regenerate-auth-key`);
    await conform('DELETE', wc, { headers: { 'if-match': '*' } });
    await conform('GET', '/v1/devices', { token: null });
    await conform('GET', '/v1/devices', { token: await h.token('sandbox-reboot-only', 'thirdparty.api.device_commands_reboot') });
    // in the same test: a test of its own would pass or fail by what another test left behind (alone, -t, shuffled)
    expect([...seen].sort(), 'operations never exercised').toEqual(OPERATIONS.map((o) => o.operationId).sort());
  });
});
