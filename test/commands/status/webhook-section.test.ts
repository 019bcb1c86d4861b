// The status report's webhook section: what was read, or why not, as an outcome; the note and whether the
// webhooks_read scope was granted follow from the outcome (a 403 or no token: refused; another error: granted, the
// scope was not what failed; no organization: never asked), whatever the words of the service's answer.
import { describe, expect, it } from 'vitest';
import { AuthError } from '../../../src/errors.js';
import { readWebhooks, webhookScopeState, webhookSectionOf, type WebhookOutcome } from '../../../src/commands/status/webhook-section.js';
import { fakeDeps } from '../fake-deps.js';
import { BASE, ORG, URL_A, config, getAnswer } from '../webhook-config/webhook-fixtures.js';

const problem = (status: number, code: string, detail: string) => ({ type: 'about:blank', title: 'Refused', status, code, detail });

describe('the webhook section of status', () => {
  it('a configuration read: the section as the service has it, the scope granted', async () => {
    const f = fakeDeps({ answers: [getAnswer('"e1"', config({ is_enabled: true }))] });
    const outcome = await readWebhooks(f.deps, ORG);
    expect(outcome.kind).toBe('read');
    const section = webhookSectionOf(outcome);
    expect(section).toMatchObject({ state: 'enabled', organization_id: ORG, note: null });
    expect(section.topics.map((t) => t.url)).toContain(URL_A);
    expect(webhookScopeState(outcome)).toBe('granted');
  });

  it('none configured (404): read, state none, the scope granted', async () => {
    const f = fakeDeps({ answers: [{ method: 'GET', path: BASE, status: 404, body: problem(404, 'webhook.not_found', 'none') }] });
    const outcome = await readWebhooks(f.deps, ORG);
    expect(webhookSectionOf(outcome)).toEqual({ state: 'none', organization_id: ORG, topics: [], note: 'no webhook configuration' });
    expect(webhookScopeState(outcome)).toBe('granted');
  });

  it('a 403: unavailable, the note names the code and the scope, the scope refused', async () => {
    const f = fakeDeps({ answers: [{ method: 'GET', path: BASE, status: 403, body: problem(403, 'auth.insufficient_scope', 'lacks it') }] });
    const outcome = await readWebhooks(f.deps, ORG);
    expect(outcome).toEqual({ kind: 'unavailable', organization: ORG, failure: { kind: 'forbidden', code: 'auth.insufficient_scope' } });
    expect(webhookSectionOf(outcome).note).toBe('not readable with these credentials (HTTP 403, auth.insufficient_scope): the webhooks_read scope is needed');
    expect(webhookScopeState(outcome)).toBe('refused');
  });

  it('another error whose words name the scope and a 403: the service answered, so the scope was granted', async () => {
    const f = fakeDeps({ answers: [{ method: 'GET', path: BASE, status: 409, body: problem(409, 'webhooks_read.403', 'busy') }] });
    const outcome = await readWebhooks(f.deps, ORG);
    expect(outcome).toEqual({ kind: 'unavailable', organization: ORG, failure: { kind: 'service error', status: 409, code: 'webhooks_read.403' } });
    expect(webhookSectionOf(outcome)).toMatchObject({ state: 'unavailable', note: 'the service answered HTTP 409 (webhooks_read.403)' });
    expect(webhookScopeState(outcome)).toBe('granted');
  });

  it('no token for the scope: unavailable with the issuer\'s reason, the scope refused', async () => {
    const f = fakeDeps();
    const deps = { ...f.deps, api: async () => Promise.reject(new AuthError('the issuer refused the scope')) };
    const outcome = await readWebhooks(deps, ORG);
    expect(outcome).toEqual({ kind: 'unavailable', organization: ORG, failure: { kind: 'no token', reason: 'the issuer refused the scope' } });
    expect(webhookSectionOf(outcome).note).toBe('no token for webhooks_read: the issuer refused the scope');
    expect(webhookScopeState(outcome)).toBe('refused');
  });

  it('no organization: nothing asked of the service, the scope not asked', async () => {
    const f = fakeDeps();
    const outcome = await readWebhooks(f.deps, undefined);
    expect(f.sent).toEqual([]);
    expect(webhookSectionOf(outcome)).toEqual({ state: 'unavailable', organization_id: null, topics: [], note: 'no organization: pass --organization-id or set organization_id' });
    expect(webhookScopeState(outcome)).toBe('not asked');
  });

  it('the scope state is the outcome\'s, never read back from a note', () => {
    // a reason worded like another outcome's note changes nothing
    const noToken: WebhookOutcome = { kind: 'unavailable', organization: ORG, failure: { kind: 'no token', reason: 'the service answered HTTP 500' } };
    const serviceError: WebhookOutcome = { kind: 'unavailable', organization: ORG, failure: { kind: 'service error', status: 500, code: 'no organization' } };
    expect(webhookScopeState(noToken)).toBe('refused');
    expect(webhookScopeState(serviceError)).toBe('granted');
  });

  it('any other failure is not a section note: it propagates', async () => {
    const f = fakeDeps();
    const deps = { ...f.deps, api: async () => Promise.reject(new RangeError('a bug')) };
    await expect(readWebhooks(deps, ORG)).rejects.toThrow(RangeError);
  });
});
