// The control routes' own OpenAPI document (src/sandbox/common/control-openapi.json, served at /_sandbox/openapi.json):
// valid, in step with the router (which refuses to start on drift), and describing what the routes answer.
import SwaggerParser from '@apidevtools/swagger-parser';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import document from '../../src/sandbox/common/control-openapi.json' with { type: 'json' };
import apiDocument from '../../src/openapi/v1.json' with { type: 'json' };
import { controlOperations } from '../../src/sandbox/common/control-document.js';
import { worldRoutes } from '../../src/sandbox/control/world-routes.js';
import { faultRoutes } from '../../src/sandbox/control/fault-routes.js';
import { journalRoutes } from '../../src/sandbox/control/journal-routes.js';
import { sandboxWebhookRoutes } from '../../src/sandbox/webhooks/routes.js';
import { buildRouter } from '../../src/sandbox/routes/index.js';
import { SCOPES } from '../../src/openapi/operations.js';
import type { ControlRoute } from '../../src/sandbox/app.js';
import type { SandboxWebhookDelivery } from '../../src/sandbox/webhooks/delivery.js';
import { startHarness, type Harness } from './harness.js';

type Json = Record<string, any>;
const doc = document as Json;
const routes = (): ControlRoute[] => [...worldRoutes, ...sandboxWebhookRoutes({} as SandboxWebhookDelivery), ...faultRoutes, ...journalRoutes];

// response schemas are checked with the document's own schemas, as $defs of one JSON Schema
const ajv = new (Ajv2020 as unknown as typeof Ajv2020.default)({ strict: false, allErrors: true });
(addFormats as unknown as typeof addFormats.default)(ajv);
ajv.addSchema({ $defs: JSON.parse(JSON.stringify(doc.components.schemas).replaceAll('"#/components/schemas/', '"#/$defs/')) }, 'control');
function conforms(schema: Json, value: unknown): string[] {
  const validate = ajv.compile(JSON.parse(JSON.stringify(schema).replaceAll('"#/components/schemas/', '"control#/$defs/')));
  return validate(value) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
}

describe('the control document', () => {
  it('is a valid OpenAPI 3.1.1 document of its own, not the API\'s', async () => {
    await expect(SwaggerParser.validate(structuredClone(doc) as never)).resolves.toBeTruthy();
    expect(doc.openapi).toBe('3.1.1');
    expect(doc.info.title).toBe('fleetctl sandbox control routes');
    expect(Object.keys(doc.paths).every((p) => p.startsWith('/_sandbox/'))).toBe(true);
    expect(Object.keys(doc.paths).some((p) => p.startsWith('/v1/'))).toBe(false);
  });

  it('gives every operation a unique operationId, a summary and a declared tag', () => {
    const ops = controlOperations();
    expect(new Set(ops.map((o) => o.operationId)).size).toBe(ops.length);
    const tags = doc.tags.map((t: Json) => t.name);
    for (const op of ops) {
      const declared = doc.paths[op.path][op.method.toLowerCase()];
      expect(declared.summary, op.operationId).toMatch(/\w/);
      expect(tags).toContain(declared.tags[0]);
    }
  });

  it('describes problems as the API document does', () => {
    expect(doc.components.schemas.Problem).toEqual((apiDocument as Json).components.schemas.Problem);
  });

  it('lets scenario clients have every scope of the API, by its short or full name', () => {
    const allowed = doc.components.schemas.ScenarioClient.properties.scopes.items.enum;
    expect(allowed).toEqual(expect.arrayContaining([...SCOPES, ...SCOPES.map((s) => s.replace('thirdparty.api.', '')), 'all']));
    expect(allowed).toHaveLength(SCOPES.length * 2 + 1);
  });
});

describe('the router and the control document', () => {
  it('route every operation of the document to its handler', () => {
    const router = buildRouter(routes());
    for (const op of controlOperations()) {
      expect(router.routes.some((r) => r.method === op.method && r.path === op.path), op.operationId).toBe(true);
    }
  });

  it('refuse to start on drift: a missing handler, one the document lacks, or another method or path', () => {
    const all = routes();
    expect(() => buildRouter(all.filter((r) => r.operationId !== 'getHealth'))).toThrow('sandbox: no handler for control operation getHealth');
    expect(() => buildRouter([...all, { method: 'GET', path: '/_sandbox/secret', operationId: 'getSecret', handler: () => ({ status: 200 }) }])).toThrow(
      'sandbox: control operations not in the control document: getSecret',
    );
    expect(() => buildRouter(all.map((r) => (r.operationId === 'listRequests' ? { ...r, path: '/_sandbox/journal' } : r)))).toThrow(
      'sandbox: listRequests is GET /_sandbox/requests in the control document, GET /_sandbox/journal here',
    );
  });
});

describe('control routes answer as the document says', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ devices: 20 });
  });
  afterAll(() => h.close());

  async function check(method: string, path: string, body?: unknown): Promise<Json> {
    const res = await fetch(`${h.sb.baseUrl}${path}`, { method, headers: body === undefined ? {} : { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
    const template = controlOperations().find((o) => o.method === method && new RegExp(`^${o.path.replace(/\{\w+\}/g, '[^/]+')}$`).test(path.split('?')[0]!))!;
    expect(template, `${method} ${path} is not in the document`).toBeDefined();
    let response = doc.paths[template.path][method.toLowerCase()].responses[String(res.status)];
    if (response?.$ref) response = doc.components.responses[response.$ref.split('/').pop()];
    expect(response, `${template.operationId} answered ${res.status}, which the document does not list`).toBeDefined();
    const text = await res.text();
    if (!response.content) {
      expect(text).toBe('');
      return { status: res.status };
    }
    const type = res.headers.get('content-type')!.split(';')[0]!;
    const schema = response.content[type]?.schema;
    expect(schema, `${template.operationId} ${res.status} ${type}`).toBeDefined();
    const value = JSON.parse(text);
    expect(conforms(schema, value), `${template.operationId} ${res.status}`).toEqual([]);
    return { status: res.status, body: value };
  }

  it('for every operation, successes and refusals', async () => {
    const health = await check('GET', '/_sandbox/health');
    expect(health.body).toMatchObject({ status: 'ok', seed: 7, devices: 20, scenario: null, telemetry_rate: 0 });
    expect(health.body.uptime_seconds).toBeGreaterThanOrEqual(0);
    expect((await check('GET', '/_sandbox/openapi.json')).body).toEqual(document);
    await h.call('POST', '/v1/devices/HW-000001/commands/reboot', { headers: { 'idempotency-key': 'doc' } });
    await check('GET', '/_sandbox/commands');
    await check('POST', '/_sandbox/emit', { type: 'live.gps', count: 2 });
    await check('POST', '/_sandbox/emit', { type: 'gps' });
    await check('GET', '/_sandbox/deliveries');
    const rule = await check('POST', '/_sandbox/faults', { match: { operation_id: 'listFleets' }, respond: { status: 429, retry_after: 2 }, times: 1, description: 'doc' });
    await check('POST', '/_sandbox/faults', { respond: { status: 1 } });
    await h.call('GET', '/v1/fleets');
    await check('GET', '/_sandbox/faults');
    await check('DELETE', `/_sandbox/faults/${rule.body.id}`);
    await check('DELETE', '/_sandbox/faults/f999');
    await check('DELETE', '/_sandbox/faults');
    await check('GET', '/_sandbox/requests?bodies=true');
    await check('GET', '/_sandbox/requests?limit=0');
    const media = (await h.call('GET', '/v1/devices/HW-000001/media')).body.data[0];
    if (media) {
      const link = new URL(media.download_url);
      await check('GET', `${link.pathname}${link.search}`.replace(/signature=[^&]+/, 'signature=forged'));
    }
    await check('GET', '/_sandbox/media/nothing?expires=1&signature=x');
    await check('POST', '/_sandbox/scenario', { base: 'nothing' });
    const loaded = await check('POST', '/_sandbox/scenario', { name: 'tiny', organizations: [{ key: 'o', name: 'O', parent: 'root' }] });
    expect(loaded.body).toMatchObject({ scenario: 'tiny', devices: 20 });
    expect((await check('POST', '/_sandbox/reset')).status).toBe(204);
  });
});
