import { describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CACHE_TTL_MS, cacheFileFor, isLoopback, loadOperationCatalog, operationsOfDocument } from '../../src/api/served-operations.js';
import { scriptedTransport } from '../support/scripted-transport.js';

const doc = { paths: { '/v1/a': { get: { operationId: 'getA', security: [{ oauth2: ['s.a'] }] }, post: { operationId: 'noScope' } } } };

const DOCUMENT = { method: 'GET', path: '/openapi/v1.json' };

describe('served operations', () => {
  it('lists operations with exactly one scope', () => {
    expect(operationsOfDocument(doc)).toEqual([{ operationId: 'getA', method: 'GET', path: '/v1/a', scope: 's.a' }]);
    expect(() => operationsOfDocument({ info: {} })).toThrow('no paths');
  });

  it('fetches, caches for an hour, then refreshes; a failed refresh keeps the stale copy', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'served-'));
    let now = Date.parse('2024-01-01T00:00:00Z');
    const clock = { now: () => new Date(now), sleep: async () => undefined };
    const transport = scriptedTransport([{ ...DOCUMENT, body: doc }, { ...DOCUMENT, status: 503 }]);
    const base = 'https://api.example.com';
    expect((await loadOperationCatalog({ transport, clock, configDir: dir }, base)).source).toBe('served');
    expect(existsSync(cacheFileFor(dir, base))).toBe(true);
    expect((await loadOperationCatalog({ transport, clock, configDir: dir }, base)).source).toBe('cache');
    expect(transport.sent).toHaveLength(1);
    now += CACHE_TTL_MS + 1;
    const stale = await loadOperationCatalog({ transport, clock, configDir: dir }, base);
    expect(stale.source).toBe('cache');
    expect(stale.warning).toBe('could not refresh the API document from https://api.example.com/openapi/v1.json (HTTP 503); using the copy fetched at 2024-01-01T00:00:00.000Z');
    expect(stale.operations.map((o) => o.operationId)).toEqual(['getA']);
  });

  it('never caches for a loopback server', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'served-'));
    const clock = { now: () => new Date(), sleep: async () => undefined };
    const transport = scriptedTransport([{ ...DOCUMENT, body: doc }]);
    await loadOperationCatalog({ transport, clock, configDir: dir }, 'http://127.0.0.1:4010');
    expect(readdirSync(dir)).toEqual([]);
    expect(isLoopback('http://localhost:1')).toBe(true);
    expect(isLoopback('https://api.example.com')).toBe(false);
  });
});
