// A path parameter the service's document writes in another style (label, matrix): the client writes it simple
// (OpenAPI's default) without asking the document, and, refused with a 404 or 400, asks the document and sends it
// once more in that style. The document is never asked for a call that succeeds or whose path has no parameter.
import { describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/api/client.js';
import type { ParameterStyles } from '../../src/api/parameter-style.js';
import { operation } from '../../src/openapi/operations.js';
import { silentTracer } from '../../src/http/trace.js';
import { DEFAULT_RETRY_POLICY } from '../../src/shared/retry.js';
import type { HttpRequest, Transport } from '../../src/http/transport.js';
import { ApiError } from '../../src/errors.js';
import { FakeClock } from '../support/fake-clock.js';

const BASE = 'https://api.example.test';
/** What a service answers for a path no route takes: a 404 naming no problem code. */
const notFound = { status: 404, headers: { 'content-type': 'text/plain' }, text: 'Not Found' };
const noSuchDevice = { status: 404, headers: { 'content-type': 'application/problem+json' }, text: JSON.stringify({ status: 404, code: 'device.not_found', detail: 'no such device' }) };
const ok = (body: unknown) => ({ status: 200, headers: { 'content-type': 'application/json' }, text: JSON.stringify(body) });

/** A client whose service answers the paths it knows, 404 to any other; `asked` counts the look-ups of the document. */
function clientFor(answers: Record<string, unknown>, styles: Partial<ParameterStyles>, otherwise = notFound, documentAtHand = false) {
  const sent: HttpRequest[] = [];
  let asked = 0;
  const transport = {
    send: async (request: HttpRequest) => {
      sent.push(request);
      const path = request.url.slice(BASE.length);
      return path in answers ? ok(answers[path]) : otherwise;
    },
  } as unknown as Transport;
  const api = new ApiClient({
    baseUrl: BASE,
    transport,
    tokens: { accessToken: async () => 't', invalidate: () => undefined } as never,
    clock: new FakeClock(),
    tracer: silentTracer,
    retry: { ...DEFAULT_RETRY_POLICY, maxRetries: 0 },
    operation,
    parameterStyles: async () => {
      asked++;
      return { query: new Map(), path: new Map(), ...styles };
    },
    documentAtHand: () => documentAtHand,
  });
  return { api, sent, asked: () => asked };
}

describe('path parameters in the style of the document', () => {
  it('sends a matrix path again as the document writes it after a 404, and keeps the answer', async () => {
    const { api, sent, asked } = clientFor({ '/v1/devices/;id=d%201': { id: 'd 1' } }, { path: new Map([['id', { style: 'matrix', explode: false }]]) });
    const answer = await api.call('getDevice', { pathParams: { id: 'd 1' } });
    expect(answer.body).toEqual({ id: 'd 1' });
    expect(sent.map((r) => r.url.slice(BASE.length))).toEqual(['/v1/devices/d%201', '/v1/devices/;id=d%201']);
    expect(asked()).toBe(1);
  });

  it('a label path of a command carrying its Idempotency-Key (safe to send again)', async () => {
    const { api, sent } = clientFor({ '/v1/devices/.HW-1/commands/reboot': { accepted: true } }, { path: new Map([['hardwareId', { style: 'label', explode: false }]]) });
    const answer = await api.call('rebootDevice', { pathParams: { hardwareId: 'HW-1' }, headers: { 'Idempotency-Key': 'k1' } });
    expect(answer.body).toEqual({ accepted: true });
    expect(sent.map((r) => [r.url.slice(BASE.length), r.headers['Idempotency-Key']])).toEqual([
      ['/v1/devices/HW-1/commands/reboot', 'k1'],
      ['/v1/devices/.HW-1/commands/reboot', 'k1'],
    ]);
  });

  it('a 404 of a path the document writes simple is the answer: nothing is sent again', async () => {
    const { api, sent, asked } = clientFor({}, { path: new Map([['id', { style: 'simple', explode: false }]]) });
    await expect(api.call('getDevice', { pathParams: { id: 'gone' } })).rejects.toBeInstanceOf(ApiError);
    expect(sent).toHaveLength(1);
    expect(asked()).toBe(1);
  });

  it('a 404 the service\'s handler answered with its problem code is about the device: the document is not asked', async () => {
    const { api, sent, asked } = clientFor({}, { path: new Map([['id', { style: 'matrix', explode: false }]]) }, noSuchDevice);
    await expect(api.call('getDevice', { pathParams: { id: 'gone' } })).rejects.toMatchObject({ status: 404, code: 'device.not_found' });
    expect(sent).toHaveLength(1);
    expect(asked()).toBe(0);
  });

  it('asks no document for a call that succeeds, nor after a 404 of a path without parameters', async () => {
    const { api, asked } = clientFor({ '/v1/devices/d1': { id: 'd1' } }, {});
    await api.call('getDevice', { pathParams: { id: 'd1' } });
    await expect(api.call('listFleets', {})).rejects.toBeInstanceOf(ApiError);
    expect(asked()).toBe(0);
  });

  it('a query list asks the document up front, and its path styles then apply at once', async () => {
    const { api, sent, asked } = clientFor(
      { '/v1/events?fleet_ids=a%2Cb&limit=10': { data: [], has_more: false, next_cursor: null } },
      { query: new Map([['fleet_ids', { style: 'form', explode: false }]]) },
    );
    const pages = api.list('searchEvents', { query: { fleet_ids: ['a', 'b'] } as never }, { limit: 10, all: false });
    for await (const item of pages) expect(item).toBeUndefined();
    expect(sent).toHaveLength(1);
    expect(asked()).toBe(1);
  });

  it('once the document is at hand (a command read it already), a path is written in its style from the first request', async () => {
    const { api, sent, asked } = clientFor({ '/v1/devices/.HW-1/commands/reboot': { accepted: true } }, { path: new Map([['hardwareId', { style: 'label', explode: false }]]) }, notFound, true);
    const answer = await api.call('rebootDevice', { pathParams: { hardwareId: 'HW-1' }, headers: { 'Idempotency-Key': 'k1' } });
    expect(answer.body).toEqual({ accepted: true });
    expect(sent.map((r) => r.url.slice(BASE.length))).toEqual(['/v1/devices/.HW-1/commands/reboot']);
    expect(asked()).toBe(1);
  });

  it('a POST without an Idempotency-Key, not safe to send twice, reaches a label path when the document is at hand', async () => {
    const { api, sent } = clientFor({ '/v1/devices/.HW-1/commands/reboot': { accepted: true } }, { path: new Map([['hardwareId', { style: 'label', explode: false }]]) }, notFound, true);
    await expect(api.call('rebootDevice', { pathParams: { hardwareId: 'HW-1' } } as never)).resolves.toMatchObject({ body: { accepted: true } });
    expect(sent).toHaveLength(1);
  });
});
