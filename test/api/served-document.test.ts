import { describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { composeDocument, type OpenApiDoc } from '../../src/openapi/document-shapes.js';
import { COMPOSITION_RULES_VERSION } from '../../src/openapi/composed-document.js';
import { CACHE_TTL_MS, bundledDocument, cacheFileFor, loadServedDocument } from '../../src/api/served-document.js';
import { scriptedTransport } from '../support/scripted-transport.js';
import { tempDir } from '../support/temp-dir.js';

const doc = { openapi: '3.1.1', paths: { '/v1/a': { get: { operationId: 'getA', security: [{ oauth2: ['s.a'] }] } } }, components: { schemas: { A: { type: 'object' } } } };
const DOCUMENT = { method: 'GET', path: '/openapi/v1.json' };
const BASE = 'https://api.example.com';

function setup(start = '2024-01-01T00:00:00Z') {
  const dir = tempDir('served-');
  const time = { now: Date.parse(start) };
  const clock = { now: () => new Date(time.now), sleep: async () => undefined };
  return { dir, clock, time };
}

describe('loadServedDocument', () => {
  it('fetches the whole document without a token, caches it for an hour, then refreshes; a failed refresh keeps the stale copy', async () => {
    const { dir, clock, time } = setup();
    const transport = scriptedTransport([{ ...DOCUMENT, body: doc }, { ...DOCUMENT, status: 503 }]);
    const first = await loadServedDocument({ transport, clock, configDir: dir }, BASE);
    expect(first).toEqual({ document: doc, source: 'served' });
    expect(transport.sent[0]!.headers?.authorization).toBeUndefined();
    expect(JSON.parse(readFileSync(cacheFileFor(dir, BASE), 'utf8'))).toEqual({ base_url: BASE, fetched_at: '2024-01-01T00:00:00.000Z', document: doc });
    expect(await loadServedDocument({ transport, clock, configDir: dir }, BASE)).toEqual({ document: doc, source: 'cache' });
    expect(transport.sent).toHaveLength(1);
    time.now += CACHE_TTL_MS + 1;
    const stale = await loadServedDocument({ transport, clock, configDir: dir }, BASE);
    expect(stale.source).toBe('cache');
    expect(stale.document).toEqual(doc);
    expect(stale.warning).toBe('could not refresh the API document from https://api.example.com/openapi/v1.json (HTTP 503); using the copy fetched at 2024-01-01T00:00:00.000Z');
  });

  it('refresh asks the server although the cache is fresh', async () => {
    const { dir, clock } = setup();
    const newer = { ...doc, info: { version: '2' } };
    const transport = scriptedTransport([{ ...DOCUMENT, body: doc }, { ...DOCUMENT, body: newer }]);
    await loadServedDocument({ transport, clock, configDir: dir }, BASE);
    expect((await loadServedDocument({ transport, clock, configDir: dir }, BASE, { refresh: true })).document).toEqual(newer);
  });

  it('falls back to the bundled document, saying why, when nothing is served and nothing is cached', async () => {
    const { dir, clock } = setup();
    const transport = scriptedTransport([
      { ...DOCUMENT, status: 404 },
      { ...DOCUMENT, body: { openapi: '3.1.1' } },
      { ...DOCUMENT, body: { paths: { '/v1/a': {} } } },
    ]);
    const deps = { transport, clock, configDir: dir };
    const notServed = await loadServedDocument(deps, BASE);
    expect(notServed.source).toBe('bundled');
    expect(notServed.document).toBe(await bundledDocument());
    expect(notServed.warning).toBe('could not read the API document from https://api.example.com/openapi/v1.json (HTTP 404); using the one bundled with fleetctl');
    expect((await loadServedDocument(deps, BASE)).warning).toContain('(it is not an OpenAPI document (no paths))');
    expect((await loadServedDocument(deps, BASE)).warning).toContain('(it describes no operations)');
    expect(existsSync(cacheFileFor(dir, BASE))).toBe(false);
  });

  it('the URL in a warning is escaped and cut: a base URL is typed by people', async () => {
    const { dir, clock } = setup();
    const base = `https://api.example.com/\u001b[31m${'x'.repeat(500)}`;
    const transport = scriptedTransport([{ method: 'GET', path: `/%1B[31m${'x'.repeat(500)}/openapi/v1.json`, status: 500 }]);
    const { warning } = await loadServedDocument({ transport, clock, configDir: dir }, base);
    expect(warning).toMatch(/^could not read the API document from https:\/\/api\.example\.com\/\\x1b\[31mx+… \(5\d\d characters\) \(HTTP 500\); using the one bundled with fleetctl$/);
  });

  it('a cache written by an older fleetctl (operations only) is fetched again', async () => {
    const { dir, clock } = setup();
    const file = cacheFileFor(dir, BASE);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, JSON.stringify({ base_url: BASE, fetched_at: '2024-01-01T00:00:00.000Z', operations: [] }));
    const transport = scriptedTransport([{ ...DOCUMENT, body: doc }]);
    expect((await loadServedDocument({ transport, clock, configDir: dir }, BASE)).source).toBe('served');
  });

  it('caches per base URL', async () => {
    const { dir, clock } = setup();
    const other = { paths: { '/v2/b': { get: {} } } };
    const transport = scriptedTransport([{ ...DOCUMENT, body: doc }, { ...DOCUMENT, body: other }]);
    await loadServedDocument({ transport, clock, configDir: dir }, BASE);
    expect((await loadServedDocument({ transport, clock, configDir: dir }, 'https://other.example.com')).document).toEqual(other);
    expect(cacheFileFor(dir, BASE)).not.toBe(cacheFileFor(dir, 'https://other.example.com'));
  });

  it('never caches for a loopback server', async () => {
    const { dir, clock } = setup();
    const transport = scriptedTransport([{ ...DOCUMENT, body: doc }, { ...DOCUMENT, body: doc }, { ...DOCUMENT, body: doc }]);
    await loadServedDocument({ transport, clock, configDir: dir }, 'http://127.0.0.1:4010');
    expect((await loadServedDocument({ transport, clock, configDir: dir }, 'http://127.0.0.1:4010')).source).toBe('served');
    // any host of the shared rule (test/shared/loopback.test.ts), a name under localhost included
    expect((await loadServedDocument({ transport, clock, configDir: dir }, 'http://api.localhost:4010')).source).toBe('served');
    // the one composed copy of what they served (by its content, whatever server served it), no copy per server
    expect(readdirSync(path.join(dir, 'openapi-cache'))).toEqual([expect.stringMatching(/^composed-[0-9a-f]{16}\.json$/)]);
  });

  it('the document is handed out composed, and a composed copy serves the next run', async () => {
    const { dir, clock } = setup();
    const generated = { ...doc, components: { schemas: { When: { anyOf: [{ type: 'string', format: 'date-time' }, { type: 'null' }] } } } };
    const transport = scriptedTransport([{ ...DOCUMENT, body: generated }, { ...DOCUMENT, body: generated }]);
    const first = await loadServedDocument({ transport, clock, configDir: dir }, 'http://127.0.0.1:4010');
    const second = await loadServedDocument({ transport, clock, configDir: dir }, 'http://127.0.0.1:4010');
    for (const served of [first, second]) expect(served.document.components?.schemas?.When).toEqual({ type: ['string', 'null'], format: 'date-time' });
    expect(first.document).not.toBe(second.document);
  });
});

describe('the bundled document composed at build time (src/build/gen-composed.mjs)', () => {
  it('is what composing it now gives, under the key of the document it came from: never a stale copy', async () => {
    const { default: prebuilt } = (await import('../../src/openapi/v1.composed.gen.json', { with: { type: 'json' } })) as unknown as { default: { key: string; document: unknown } };
    const { default: bundled } = await import('../../src/openapi/v1.json', { with: { type: 'json' } });
    // a fresh copy, so the composition is done here and not taken from the module's memo
    const composedNow = await composeDocument(structuredClone(bundled) as unknown as OpenApiDoc);
    expect(JSON.parse(JSON.stringify(composedNow))).toEqual(prebuilt.document);
    expect(prebuilt.key).toBe(createHash('sha256').update(`${COMPOSITION_RULES_VERSION}\n${JSON.stringify(bundled)}`).digest('hex').slice(0, 16));
    // and it is what fleetctl hands out for the bundled document
    expect(await bundledDocument()).toBe(prebuilt.document);
  });
});
