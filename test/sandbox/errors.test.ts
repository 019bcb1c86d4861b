import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectProblem, startHarness, type Harness } from './harness.js';
import document from '../../src/openapi/v1.json' with { type: 'json' };

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

describe('errors are problem+json with a stable code', () => {
  it('404 route.not_found for an unknown path, with or without a token', async () => {
    expectProblem(await h.call('GET', '/v1/nothing-here'), 404, 'route.not_found');
    expectProblem(await h.call('GET', '/', { token: null }), 404, 'route.not_found');
    expectProblem(await h.call('GET', '/v1/devices/', { token: null }), 404, 'route.not_found');
  });

  it('405 method.not_allowed with an Allow header', async () => {
    const res = await h.call('PATCH', '/v1/devices');
    expectProblem(res, 405, 'method.not_allowed');
    expect(res.headers.get('allow')).toBe('GET, HEAD');
    const token = await fetch(`${h.sb.authUrl}/connect/token`);
    expect(token.status).toBe(405);
  });

  it('500 internal.error without a stack trace when a handler throws', async () => {
    const lines: string[] = [];
    const broken = await startHarness({ log: (l) => lines.push(l) });
    try {
      broken.sb.hooks.onWebhookConfigChange(() => {
        throw new Error('listener exploded');
      });
      const path = `/v1/organizations/${broken.org('Acme Logistics').id}/webhook-config`;
      const res = await broken.call('PUT', path, { body: { is_enabled: false, topics: [{ type: 'events', delivery: { url: 'https://a.example.com/' } }] } });
      const p = expectProblem(res, 500, 'internal.error');
      expect(res.text).not.toMatch(/exploded|at .*\.ts|stack/);
      expect(Object.keys(p).sort()).toEqual(['code', 'detail', 'status', 'title', 'type']);
      expect(lines.join('\n')).toContain('listener exploded');
    } finally {
      await broken.close();
    }
  });

  it('answers a request that is not valid HTTP with a problem document', async () => {
    const { connect } = await import('node:net');
    const url = new URL(h.sb.baseUrl);
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(url.port), url.hostname, () => socket.write('GARBAGE / NOPE\r\n\r\n'));
      let data = '';
      socket.on('data', (chunk) => (data += chunk));
      socket.on('end', () => resolve(data));
      socket.on('error', reject);
    });
    expect(answer).toMatch(/^HTTP\/1.1 400/);
    expect(answer).toContain('application/problem+json');
    expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)).code).toBe('request.malformed');
  });

  it('answers oversized headers (a 100 kB query string) with a 431 problem titled as such', async () => {
    const res = await fetch(`${h.sb.baseUrl}/v1/devices?${'a'.repeat(100_000)}=1`);
    expect(res.status).toBe(431);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    expect(await res.json()).toMatchObject({ status: 431, title: 'Request Header Fields Too Large', code: 'request.malformed' });
  });

  it('answers bad percent-encoding in a path with 400, not 500', async () => {
    expectProblem(await h.call('GET', '/v1/devices/%E0%A4%A/last-reported'), 400, 'request.invalid_parameter');
  });
});

describe('the OpenAPI document', () => {
  it('is served at /openapi/v1.json without a token', async () => {
    const res = await fetch(h.sb.openapiUrl);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await res.json()).toEqual(document);
  });

  it('describes exactly the operations the sandbox routes', async () => {
    const { apiRoutes } = await import('../../src/sandbox/routes/index.js');
    const served = apiRoutes.map((r) => `${r.method} ${r.path}`).sort();
    const documented: string[] = [];
    for (const [path, item] of Object.entries(document.paths as Record<string, Record<string, { operationId?: string }>>)) {
      for (const [method, op] of Object.entries(item)) if (op?.operationId) documented.push(`${method.toUpperCase()} ${path}`);
    }
    expect(served).toEqual(documented.sort());
  });
});
