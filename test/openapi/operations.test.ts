// Look-ups over OPERATIONS, and that the generated modules match the document.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { OPERATIONS, SCOPES, matchOperation, operation, scopeFor } from '../../src/openapi/operations.js';
import { ROOT, operationsOf, readDocument } from './document-fixture.js';

interface Generator {
  generateFromOpenApi(root: string, options?: { outDir?: string }): Promise<void>;
}

describe('operation and scopeFor', () => {
  it('finds an operation by its operationId', () => {
    expect(operation('rebootDevice')).toEqual({
      operationId: 'rebootDevice',
      method: 'POST',
      path: '/v1/devices/{hardwareId}/commands/reboot',
      scope: 'thirdparty.api.device_commands_reboot',
      tag: 'devices',
    });
  });

  it('throws for an unknown operationId', () => {
    expect(() => operation('rebootEverything')).toThrow('Unknown operationId: rebootEverything');
  });

  it.each([
    ['wakeUpDevice', 'thirdparty.api.device_commands_wake_up'],
    ['getDeviceLastPosition', 'thirdparty.api.live_positions_read'],
    ['getWebhookConfig', 'thirdparty.api.webhooks_read'],
    ['deleteWebhookTopic', 'thirdparty.api.webhooks_write'],
    ['listFleets', 'thirdparty.api.fleets_read'],
  ] as const)('scopeFor(%s) is %s', (operationId, scope) => {
    expect(scopeFor(operationId)).toBe(scope);
  });

  it('exports every scope the document declares', () => {
    expect(SCOPES).toHaveLength(19);
    for (const op of OPERATIONS) expect(SCOPES).toContain(op.scope);
  });
});

describe('matchOperation', () => {
  it.each([
    ['GET', '/v1/devices', 'listDevices'],
    ['get', '/v1/devices?limit=5&cursor=abc', 'listDevices'],
    ['GET', '/v1/devices/3f1c1a8e-0000-4000-8000-000000000001', 'getDevice'],
    ['GET', '/v1/devices/HW-000001/events', 'listDeviceEvents'],
    ['GET', '/v1/devices/HW-000001/events/', 'listDeviceEvents'],
    ['GET', '/v1/devices/HW-000001/last-position', 'getDeviceLastPosition'],
    ['PUT', '/v1/devices/abc/assignment', 'assignDevice'],
    ['DELETE', '/v1/devices/abc/assignment', 'unassignDevice'],
    ['POST', '/v1/devices/HW-000001/commands/wake-up', 'wakeUpDevice'],
    ['GET', '/v1/events/SFctMDAwMDAxfjEyMw/media', 'listEventMedia'],
    ['PATCH', '/v1/organizations/org-1/webhook-config', 'updateWebhookConfig'],
    ['POST', '/v1/organizations/org-1/webhook-config/regenerate-auth-key', 'regenerateWebhookAuthKey'],
    ['DELETE', '/v1/organizations/org-1/webhook-config/topics/live_gps', 'deleteWebhookTopic'],
    ['GET', '/v1/organizations/org-1/descendants', 'listOrganizationDescendants'],
  ])('%s %s is %s', (method, concretePath, operationId) => {
    expect(matchOperation(method, concretePath)?.operationId).toBe(operationId);
  });

  it.each([
    ['GET', '/v1/nothing'],
    ['GET', '/v1/devices/HW-1/unknown'],
    ['POST', '/v1/devices'],
    ['GET', '/v1/devices//events'],
    ['GET', '/v2/devices'],
    ['GET', '/'],
  ])('%s %s matches nothing', (method, concretePath) => {
    expect(matchOperation(method, concretePath)).toBeUndefined();
  });

  it('matches every template of the document to itself', () => {
    for (const op of OPERATIONS) expect(matchOperation(op.method, op.path)).toBe(op);
  });
});

describe('generated modules', () => {
  it('list every operation of the document, with its one scope and tag', () => {
    const expected = operationsOf(readDocument()).map(({ method, path: template, op }) => ({
      operationId: op.operationId,
      method,
      path: template,
      scope: op.security[0].oauth2[0],
      tag: op.tags[0],
    }));
    expect(OPERATIONS).toEqual(expected);
  });

  it('are up to date with src/openapi/v1.json, local-files.json and the control document', async () => {
    const generator: Generator = await import(pathToFileURL(path.join(ROOT, 'src/build/gen-openapi.mjs')).href);
    const outDir = await mkdtemp(path.join(tmpdir(), 'fleetctl-openapi-'));
    try {
      await generator.generateFromOpenApi(ROOT, { outDir });
      for (const file of ['operations.gen.ts', 'types.gen.ts', 'control.gen.ts', 'local-files.gen.ts', 'webhook-events.gen.ts']) {
        const fresh = await readFile(path.join(outDir, file), 'utf8');
        const committed = await readFile(path.join(ROOT, 'src/openapi', file), 'utf8');
        expect(committed, `${file} is stale: run npm run build`).toBe(fresh);
      }
    } finally {
      await rm(outDir, { recursive: true, force: true });
    }
  }, 30_000);
});
