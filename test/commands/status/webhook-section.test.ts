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
    const outcome = await readWebhooks(f.deps, { organizationId: ORG });
    expect(outcome.kind).toBe('read');
    const section = webhookSectionOf(outcome);
    expect(section).toMatchObject({ state: 'enabled', organization_id: ORG, note: null });
    expect(section.topics.map((t) => t.url)).toContain(URL_A);
    expect(webhookScopeState(outcome)).toBe('granted');
  });

  it('none configured (404): read, state none, the scope granted', async () => {
    const f = fakeDeps({ answers: [{ method: 'GET', path: BASE, status: 404, body: problem(404, 'webhook.not_found', 'none') }] });
    const outcome = await readWebhooks(f.deps, { organizationId: ORG });
    expect(webhookSectionOf(outcome)).toEqual({ state: 'none', organization_id: ORG, topics: [], note: 'no webhook configuration' });
    expect(webhookScopeState(outcome)).toBe('granted');
  });

  it('a 403: unavailable, the note names the code and the scope, the scope refused', async () => {
    const f = fakeDeps({ answers: [{ method: 'GET', path: BASE, status: 403, body: problem(403, 'auth.insufficient_scope', 'lacks it') }] });
    const outcome = await readWebhooks(f.deps, { organizationId: ORG });
    expect(outcome).toEqual({ kind: 'unavailable', organization: ORG, failure: { kind: 'forbidden', code: 'auth.insufficient_scope' } });
    expect(webhookSectionOf(outcome).note).toBe('not readable with these credentials (HTTP 403, auth.insufficient_scope): the webhooks_read scope is needed');
    expect(webhookScopeState(outcome)).toBe('refused');
  });

  it('another error whose words name the scope and a 403: the service answered, so the scope was granted', async () => {
    const f = fakeDeps({ answers: [{ method: 'GET', path: BASE, status: 409, body: problem(409, 'webhooks_read.403', 'busy') }] });
    const outcome = await readWebhooks(f.deps, { organizationId: ORG });
    expect(outcome).toEqual({ kind: 'unavailable', organization: ORG, failure: { kind: 'service error', status: 409, code: 'webhooks_read.403' } });
    expect(webhookSectionOf(outcome)).toMatchObject({ state: 'unavailable', note: 'the service answered HTTP 409 (webhooks_read.403)' });
    expect(webhookScopeState(outcome)).toBe('granted');
  });

  it('no token for the scope: unavailable with the issuer\'s reason, the scope refused', async () => {
    const f = fakeDeps();
    const deps = { ...f.deps, api: async () => Promise.reject(new AuthError('the issuer refused the scope')) };
    const outcome = await readWebhooks(deps, { organizationId: ORG });
    expect(outcome).toEqual({ kind: 'unavailable', organization: ORG, failure: { kind: 'no token', reason: 'the issuer refused the scope' } });
    expect(webhookSectionOf(outcome).note).toBe('no token for webhooks_read: the issuer refused the scope');
    expect(webhookScopeState(outcome)).toBe('refused');
  });

  it('no organization: nothing asked of the service, the scope not asked', async () => {
    const f = fakeDeps();
    const outcome = await readWebhooks(f.deps, {});
    expect(f.sent).toEqual([]);
    expect(webhookSectionOf(outcome)).toEqual({ state: 'unavailable', organization_id: null, topics: [], note: 'no organization: pass --organization-id or set organization_id' });
    expect(webhookScopeState(outcome)).toBe('not asked');
  });

  describe('with --fleet-id: the organization the fleet\'s record names', () => {
    const FLEET = '22222222-2222-4222-8222-222222222222';
    const OTHER = '33333333-3333-4333-8333-333333333333';
    const fleetAnswer = (body: unknown) => ({ method: 'GET', path: `/v1/fleets/${FLEET}`, body });

    it.each([
      ['organization_id', { id: FLEET, organization_id: ORG }],
      ['organization: {id}', { id: FLEET, organization: { id: ORG } }],
    ])('named as %s, before the profile\'s organization_id: its configuration is read', async (_, fleet) => {
      const f = fakeDeps({ organizationId: OTHER, answers: [fleetAnswer(fleet), getAnswer('"e1"', config({ is_enabled: true }))] });
      const outcome = await readWebhooks(f.deps, { fleetId: FLEET });
      expect(webhookSectionOf(outcome)).toMatchObject({ state: 'enabled', organization_id: ORG });
      expect(f.sent.map((r) => r.path)).toEqual([`/v1/fleets/${FLEET}`, BASE]);
    });

    it('a fleet that names none, and no organization_id: the note says so, not to pass --organization-id (which --fleet-id excludes)', async () => {
      const f = fakeDeps({ answers: [fleetAnswer({ id: FLEET, name: 'North' })] });
      const outcome = await readWebhooks(f.deps, { fleetId: FLEET });
      expect(webhookSectionOf(outcome).note).toBe("no organization: the fleet's record names none; set organization_id");
      expect(webhookScopeState(outcome)).toBe('not asked');
    });

    it('a fleet that names none: the profile\'s organization_id is read', async () => {
      const f = fakeDeps({ organizationId: ORG, answers: [fleetAnswer({ id: FLEET }), getAnswer('"e1"')] });
      const outcome = await readWebhooks(f.deps, { fleetId: FLEET });
      expect(webhookSectionOf(outcome)).toMatchObject({ state: 'disabled', organization_id: ORG });
    });

    it('a fleet that cannot be read (403): the section says why, and the report goes on', async () => {
      const f = fakeDeps({ answers: [{ method: 'GET', path: `/v1/fleets/${FLEET}`, status: 403, body: problem(403, 'auth.insufficient_scope', 'no') }] });
      const outcome = await readWebhooks(f.deps, { fleetId: FLEET });
      expect(webhookSectionOf(outcome).note).toBe('no organization: the fleet could not be read (HTTP 403, auth.insufficient_scope); set organization_id');
      expect(webhookScopeState(outcome)).toBe('not asked');
    });

    it('--organization-id given: the fleet is not asked', async () => {
      const f = fakeDeps({ answers: [getAnswer('"e1"')] });
      await readWebhooks(f.deps, { organizationId: ORG, fleetId: FLEET });
      expect(f.sent.map((r) => r.path)).toEqual([BASE]);
    });
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
    await expect(readWebhooks(deps, { organizationId: ORG })).rejects.toThrow(RangeError);
  });
});
