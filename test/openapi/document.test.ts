// The OpenAPI document against the spec: every endpoint, one scope each, problem+json errors, headers.
import SwaggerParser from '@apidevtools/swagger-parser';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  dereferencedDocument,
  findOperation,
  operationsOf,
  readDocument,
  type DocumentOperation,
  type Json,
} from './document-fixture.js';

const scope = (name: string) => `thirdparty.api.${name}`;
const WEBHOOK_CONFIG = '/v1/organizations/{organizationId}/webhook-config';

// The spec's tables (and the contract's sandbox-choice endpoints): method, path, scope, and the statuses the
// spec names beyond the 401/403/429/500/503 every endpoint has.
const SPEC_ENDPOINTS: [string, string, string, number[]][] = [
  ['PUT', '/v1/devices/{id}/assignment', 'devices_write', [400, 404]],
  ['DELETE', '/v1/devices/{id}/assignment', 'devices_write', [404]],
  ['POST', '/v1/devices/{hardwareId}/commands/reboot', 'device_commands_reboot', [400, 404, 422]],
  ['POST', '/v1/devices/{hardwareId}/commands/wake-up', 'device_commands_wake_up', [400, 404, 422]],
  ['GET', '/v1/devices', 'devices_read', [400]],
  ['GET', '/v1/devices/{id}', 'devices_read', [404]],
  ['GET', '/v1/devices/{hardwareId}/events', 'devices_read', [400]],
  ['GET', '/v1/devices/{hardwareId}/last-reported', 'devices_read', [404]],
  ['GET', '/v1/devices/{hardwareId}/media', 'devices_read', [400]],
  ['GET', '/v1/devices/{hardwareId}/last-position', 'live_positions_read', [404]],
  ['GET', '/v1/drivers', 'drivers_read', [400]],
  ['POST', '/v1/drivers', 'drivers_write', [400]],
  ['GET', '/v1/drivers/{id}', 'drivers_read', [404]],
  ['PUT', '/v1/drivers/{id}', 'drivers_write', [400, 404]],
  ['GET', '/v1/events', 'events_read', [400]],
  ['GET', '/v1/events/{eventId}', 'events_read', [404]],
  ['GET', '/v1/events/{eventId}/media', 'events_read', [404]],
  ['GET', WEBHOOK_CONFIG, 'webhooks_read', [404]],
  ['PUT', WEBHOOK_CONFIG, 'webhooks_write', [412, 422]],
  ['PATCH', WEBHOOK_CONFIG, 'webhooks_write', [412]],
  ['DELETE', WEBHOOK_CONFIG, 'webhooks_write', [412]],
  ['POST', `${WEBHOOK_CONFIG}/regenerate-auth-key`, 'webhooks_write', [412]],
  ['PUT', `${WEBHOOK_CONFIG}/topics/{topicType}`, 'webhooks_write', [412, 422]],
  ['DELETE', `${WEBHOOK_CONFIG}/topics/{topicType}`, 'webhooks_write', [409, 412]],
  ['GET', '/v1/fleets', 'fleets_read', [400]],
  ['GET', '/v1/fleets/{id}', 'fleets_read', [404]],
  ['GET', '/v1/organizations', 'organizations_read', [400]],
  ['GET', '/v1/organizations/{organizationId}', 'organizations_read', [404]],
  ['GET', '/v1/organizations/{organizationId}/descendants', 'organizations_read', [400, 404]],
  ['GET', '/v1/vehicles', 'vehicles_read', [400]],
  ['GET', '/v1/vehicles/{id}', 'vehicles_read', [404]],
  ['GET', '/v1/journeys', 'journeys_read', [400]],
];
const SPEC_SCOPES = [
  'organizations_read', 'fleets_read', 'vehicles_read', 'drivers_read', 'devices_read', 'events_read', 'journeys_read',
  'live_positions_read', 'webhooks_read', 'fleets_write', 'vehicles_write', 'drivers_write', 'devices_write',
  'video_requests_write', 'live_streams_write', 'playback_sessions_write', 'webhooks_write', 'device_commands_reboot',
  'device_commands_wake_up',
].map(scope);
const LIST_ENVELOPES = ['DeviceList', 'DeviceEventSummaryList', 'DeviceMediaList', 'DriverList', 'EventListItemList', 'FleetList'];

const raw = readDocument();
const key = ({ method, path }: { method: string; path: string }) => `${method} ${path}`;
let resolved: Json;
let operations: DocumentOperation[];
beforeAll(async () => {
  resolved = await dereferencedDocument();
  operations = operationsOf(resolved);
});
const find = (method: string, path: string) => findOperation(operations, method, path);

describe('OpenAPI document', () => {
  it('is a valid OpenAPI 3.1.1 document, version 1.0.0', async () => {
    await expect(SwaggerParser.validate(readDocument())).resolves.toBeTruthy();
    expect(raw.openapi).toBe('3.1.1');
    expect(raw.info).toMatchObject({ version: '1.0.0', title: 'Fleet and Telematics Developer API' });
  });

  it('has exactly the endpoints of the spec and the contract', () => {
    expect(operations.map(key).sort()).toEqual(SPEC_ENDPOINTS.map(([method, path]) => `${method} ${path}`).sort());
  });

  it.each(SPEC_ENDPOINTS)('%s %s requires exactly the scope %s', (method, path, scopeName) => {
    const security = find(method, path).security;
    expect(security).toEqual([{ oauth2: [scope(scopeName)] }]);
  });

  it('declares all 19 scopes on an oauth2 client-credentials scheme with tokenUrl /connect/token', () => {
    const scheme = raw.components.securitySchemes.oauth2;
    expect(scheme.type).toBe('oauth2');
    expect(scheme.flows.clientCredentials.tokenUrl).toBe('/connect/token');
    const scopes = scheme.flows.clientCredentials.scopes;
    expect(Object.keys(scopes).sort()).toEqual([...SPEC_SCOPES].sort());
    for (const description of Object.values(scopes)) expect(description).toMatch(/\w/);
  });

  it('gives every operation a unique camelCase operationId, a summary and one known tag', () => {
    const ids = operations.map(({ op }) => op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    const tags = raw.tags.map((t: Json) => t.name);
    for (const { op } of operations) {
      expect(op.operationId).toMatch(/^[a-z][a-zA-Z]*$/);
      expect(op.summary).toMatch(/\w/);
      expect(op.tags).toHaveLength(1);
      expect(tags).toContain(op.tags[0]);
    }
  });

  it.each(SPEC_ENDPOINTS)('%s %s documents its errors as problem+json', (method, path, _scope, statuses) => {
    const { responses } = find(method, path);
    for (const status of [401, 403, 429, 500, 503, ...statuses]) {
      const response = responses[String(status)];
      expect(response, `${method} ${path} ${status}`).toBeDefined();
      expect(Object.keys(response.content)).toEqual(['application/problem+json']);
      expect(response.content['application/problem+json'].schema.required).toEqual(
        expect.arrayContaining(['type', 'title', 'status', 'detail', 'code']),
      );
    }
    for (const status of [429, 503]) expect(responses[String(status)].headers['Retry-After'].required).toBe(true);
    expect(Object.keys(responses).filter((s) => /^2/.test(s))).not.toHaveLength(0);
  });

  it('describes the problem members of the contract', () => {
    const problem = raw.components.schemas.Problem;
    expect(Object.keys(problem.properties).sort()).toEqual(
      ['capability', 'code', 'detail', 'invalid_params', 'required_scope', 'status', 'title', 'type'].sort(),
    );
    expect(problem.properties.invalid_params.items.required).toEqual(['name', 'reason']);
  });

  it('names the collection envelopes by item, with data, nullable next_cursor and has_more', () => {
    for (const name of [...LIST_ENVELOPES, 'OrganizationList', 'VehicleList', 'JourneyList']) {
      const envelope = raw.components.schemas[name];
      expect(envelope.required, name).toEqual(['data', 'next_cursor', 'has_more']);
      expect(envelope.properties.data.items.$ref).toBe(`#/components/schemas/${name.replace(/List$/, '')}`);
      expect(envelope.properties.next_cursor.type).toEqual(['string', 'null']);
    }
  });
});
