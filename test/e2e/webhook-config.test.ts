// webhook-config end to end: the built CLI against a real sandbox, one configuration's whole life, every
// documented error with its exit code, and the server rules the CLI never lets a user break (raw requests).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { startHarness, type CliResult, type SandboxHarness } from './harness.js';

const URL = 'https://hooks.example.com/fleet';
let h: SandboxHarness;
let rootOrg: string;
let childOrg: string;

beforeAll(async () => {
  h = await startHarness();
  rootOrg = h.envFor('sandbox-admin').FLEETCTL_ORGANIZATION_ID!;
  childOrg = h.envFor('sandbox-child').FLEETCTL_ORGANIZATION_ID!;
  expect(childOrg).not.toBe(rootOrg);
}, 60_000);

afterAll(async () => {
  await h?.close();
});

const cli = (args: string[], opts: Parameters<SandboxHarness['cli']>[1] = {}): Promise<CliResult> => h.cli(['webhook-config', ...args], opts);

/** A raw call with a token of the given client, for the rules the CLI never lets a user break. */
async function raw(
  method: 'PUT' | 'PATCH',
  path: string,
  body: unknown,
  client = 'sandbox-admin',
  scope = 'thirdparty.api.webhooks_write',
  headers: Record<string, string> = {},
): Promise<{ status: number; body: Record<string, unknown> }> {
  const env = h.envFor(client);
  const token = await request(`${env.FLEETCTL_AUTH_URL}/connect/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: env.FLEETCTL_CLIENT_ID!,
      client_secret: env.FLEETCTL_CLIENT_SECRET!,
      scope,
    }).toString(),
  });
  const { access_token } = (await token.body.json()) as { access_token: string };
  const answer = await request(`${env.FLEETCTL_BASE_URL}${path}`, {
    method,
    headers: { authorization: `Bearer ${access_token}`, 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: answer.statusCode, body: (await answer.body.json()) as Record<string, unknown> };
}

/** The API calls (not the token requests) a --debug trace shows. */
function apiCalls(stderr: string): string[] {
  return [...stderr.matchAll(/^\[debug\] > (\w+) \S+?(\/v1\/\S*)$/gm)].map((m) => `${m[1]} ${m[2]!.replace(/\?.*$/, '')}`);
}

describe('webhook-config end to end', { timeout: 60_000 }, () => {
  it('get without a configuration: 404, exit 5, says how to create one', async () => {
    const r = await cli(['get']);
    expect(r.code).toBe(5);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('(webhook_config.not_found, HTTP 404)');
    expect(r.stderr).toContain(`Hint: organization ${rootOrg} has no webhook configuration: create one with`);
  });

  it('without any organization: exit 2, saying how to set one', async () => {
    const r = await cli(['get'], { env: { FLEETCTL_ORGANIZATION_ID: undefined } });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      'Error: no organization given\nHint: pass --org UUID, or set a default with `fleetctl config set organization_id UUID` or FLEETCTL_ORGANIZATION_ID=UUID\n',
    );
  });

  it('the server refuses a first configuration that is enabled: 422 webhook.initial_activation_forbidden', async () => {
    const r = await raw('PUT', `/v1/organizations/${childOrg}/webhook-config`, { is_enabled: true, topics: [{ type: 'events', delivery: { url: URL } }] });
    expect(r.status).toBe(422);
    expect(r.body.code).toBe('webhook.initial_activation_forbidden');

    // the same through the escape hatch: exit 7
    const body = JSON.stringify({ is_enabled: true, topics: [{ type: 'events', delivery: { url: URL } }] });
    const api = await h.cli(['api', 'PUT', `/v1/organizations/${childOrg}/webhook-config`, '--input', '-'], { input: body });
    expect(api.code, api.stderr).toBe(7);
    expect(api.stderr).toContain('webhook.initial_activation_forbidden');
  });

  it('create: disabled, shown with its ETag; a second create is refused (412, exit 6)', async () => {
    const r = await cli(['create', '--url', URL, '--topics', 'events,alarms', '-o', 'json']);
    expect(r.code, r.stderr).toBe(0);
    const shown = JSON.parse(r.stdout) as Record<string, unknown>;
    expect(shown).toMatchObject({ organization_id: rootOrg, is_enabled: false, etag: expect.stringMatching(/^".+"$/) });
    expect(shown.topics).toEqual([
      { type: 'events', is_enabled: true, delivery: { url: URL } },
      { type: 'alarms', is_enabled: true, delivery: { url: URL } },
    ]);
    expect(shown).not.toHaveProperty('auth_key');
    expect(r.stderr).toContain(`Enable delivery with: fleetctl webhook-config enable --org ${rootOrg}`);

    const again = await cli(['create', '--url', URL, '--topics', 'events']);
    expect(again.code).toBe(6);
    expect(again.stderr).toContain('(precondition.required, HTTP 412)');
    expect(again.stderr).toContain('already has a webhook configuration');
  });

  it('refuses blocked and invalid URLs before any request (exit 2); the server says 422 webhook.ssrf_blocked', async () => {
    const blocked = await cli(['topics', 'set', 'media', '--url', 'https://127.0.0.1/hook', '--debug']);
    expect(blocked.code).toBe(2);
    expect(blocked.stderr).toContain('Error: --url is refused (webhook.ssrf_blocked): The callback host 127.0.0.1 is a literal address in a blocked range (loopback).');
    expect(apiCalls(blocked.stderr)).toEqual([]);
    const http = await cli(['create', '--url', 'http://hooks.example.com/', '--topics', 'events']);
    expect(http.code).toBe(2);
    expect(http.stderr).toContain('(webhook.invalid_url)');
    const unknownType = await cli(['topics', 'set', 'sms', '--url', URL]);
    expect(unknownType.code).toBe(2);

    const current = JSON.parse((await cli(['get', '-o', 'json'])).stdout) as { etag: string };
    const refused = await raw('PUT', `/v1/organizations/${rootOrg}/webhook-config/topics/media`, { delivery: { url: 'https://127.0.0.1/hook' } }, undefined, undefined, {
      'if-match': current.etag,
    });
    expect(refused.status).toBe(422);
    expect(refused.body.code).toBe('webhook.ssrf_blocked');
  });

  it('enable with the current ETag, then a stale --if-match is refused (412, exit 6)', async () => {
    const before = JSON.parse((await cli(['get', '-o', 'json'])).stdout) as { etag: string };
    const r = await cli(['enable', '-o', 'json']);
    expect(r.code, r.stderr).toBe(0);
    const after = JSON.parse(r.stdout) as { etag: string; is_enabled: boolean };
    expect(after.is_enabled).toBe(true);
    expect(after.etag).not.toBe(before.etag);
    expect(r.stderr).toContain('takes up to 60 s to propagate');

    const stale = await cli(['disable', '--if-match', before.etag]);
    expect(stale.code).toBe(6);
    expect(stale.stderr).toContain('(precondition.failed, HTTP 412)');
    expect(stale.stderr).toContain(`Hint: the configuration changed after ETag ${before.etag} was read`);

    const strict = await cli(['disable', '--if-match', after.etag]);
    expect(strict.code, strict.stderr).toBe(0);
  });

  it('topics set and remove; removing the last topic is refused (409, exit 6)', async () => {
    const set = await cli(['topics', 'set', 'media', '--url', 'https://hooks.example.com/media', '--disabled', '-o', 'json']);
    expect(set.code, set.stderr).toBe(0);
    expect((JSON.parse(set.stdout) as { topics: unknown[] }).topics).toContainEqual({ type: 'media', is_enabled: false, delivery: { url: 'https://hooks.example.com/media' } });
    const unconfirmed = await cli(['topics', 'remove', 'media', '--debug']);
    expect([unconfirmed.code, apiCalls(unconfirmed.stderr)]).toEqual([2, []]);
    expect(unconfirmed.stderr.split('\n').slice(0, 2)).toEqual(['Error: media topic not removed: confirmation required', 'Hint: pass --yes to confirm when not running interactively']);
    for (const type of ['media', 'alarms']) expect((await cli(['topics', 'remove', type, '--yes'])).code).toBe(0);
    const absent = await cli(['topics', 'remove', 'media', '--yes']);
    expect(absent.code).toBe(5);
    const last = await cli(['topics', 'remove', 'events', '--yes']);
    expect(last.code).toBe(6);
    expect(last.stderr).toContain('(webhook.last_topic, HTTP 409)');
    expect(last.stderr).toContain('Hint: a configuration keeps at least one topic');
  });

  it('regenerate-key: the key once on stdout, never in a --debug trace; --yes when not interactive', async () => {
    const unconfirmed = await cli(['regenerate-key', '--debug']);
    expect([unconfirmed.code, unconfirmed.stdout, apiCalls(unconfirmed.stderr)]).toEqual([2, '', []]);
    expect(unconfirmed.stderr.split('\n').slice(0, 2)).toEqual(['Error: webhook key not regenerated: confirmation required', 'Hint: pass --yes to confirm when not running interactively']);
    const r = await cli(['regenerate-key', '--yes', '--debug']);
    expect(r.code, r.stderr).toBe(0);
    const key = r.stdout.trim();
    expect(key.length).toBeGreaterThan(16);
    expect(r.stdout).toBe(`${key}\n`);
    expect(r.stderr).not.toContain(key);
    expect(r.stderr).toContain('it will not be shown again');
    expect(r.stderr).toContain('may stay valid for up to 60 s');
    expect(r.stderr).toContain(`Key hint …${key.slice(-4)}`);
    expect(apiCalls(r.stderr)).toEqual([`GET /v1/organizations/${rootOrg}/webhook-config`, `POST /v1/organizations/${rootOrg}/webhook-config/regenerate-auth-key`, `GET /v1/organizations/${rootOrg}/webhook-config`]);

    const json = await cli(['regenerate-key', '--yes', '--json']);
    expect(Object.keys(JSON.parse(json.stdout) as object)).toEqual(['auth_key']);
    const shown = await cli(['get', '-o', 'json']);
    expect(shown.stdout).not.toContain((JSON.parse(json.stdout) as { auth_key: string }).auth_key);
  });

  it('apply converges, then is a no-op: the second run makes no mutation (request log from --debug)', async () => {
    const desired = JSON.stringify({
      is_enabled: true,
      topics: [
        { type: 'events', delivery: { url: URL } },
        { type: 'journeys', is_enabled: false, delivery: { url: 'https://hooks.example.com/journeys' } },
      ],
    });
    const diff = await cli(['diff', '-f', '-', '-o', 'json'], { input: desired });
    expect(diff.code, diff.stderr).toBe(0);
    expect((JSON.parse(diff.stdout) as { op: string }[]).map((c) => c.op)).toEqual(['set_topic', 'set_enabled']);

    const first = await cli(['apply', '-f', '-', '--debug'], { input: desired });
    expect(first.code, first.stderr).toBe(0);
    const base = `/v1/organizations/${rootOrg}/webhook-config`;
    expect(apiCalls(first.stderr)).toEqual([`GET ${base}`, `PUT ${base}/topics/journeys`, `GET ${base}`, `PATCH ${base}`, `GET ${base}`]);

    const second = await cli(['apply', '-f', '-', '--debug'], { input: desired });
    expect(second.code, second.stderr).toBe(0);
    expect(apiCalls(second.stderr)).toEqual([`GET ${base}`]);
    expect(second.stderr).toContain('No changes');

    const same = await cli(['diff', '-f', '-', '-o', 'json'], { input: desired });
    expect(same.stdout).toBe('[]\n');
  });

  it('apply creates a configuration disabled first, then enables it', async () => {
    const desired = JSON.stringify({ is_enabled: true, topics: [{ type: 'alarms', delivery: { url: URL } }] });
    const r = await cli(['apply', '-f', '-', '--org', childOrg, '--debug'], { input: desired });
    expect(r.code, r.stderr).toBe(0);
    const base = `/v1/organizations/${childOrg}/webhook-config`;
    expect(apiCalls(r.stderr)).toEqual([`GET ${base}`, `PUT ${base}`, `GET ${base}`, `PATCH ${base}`, `GET ${base}`]);
    expect(r.stderr).toMatch(/body: \{"is_enabled":false,"topics"/);
  });

  it('a client without webhooks_write: refused at the token endpoint (exit 3); the API itself answers 403 auth.scope_missing', async () => {
    // The CLI asks for a token of the operation's scope, so the token endpoint refuses first (invalid_scope,
    // exit 3 per the contract) and the API is never called; the API's own 403 is proven with a raw request
    // made with a token the reader can get.
    const r = await cli(['disable', '--debug'], { client: 'sandbox-reader', env: { FLEETCTL_ORGANIZATION_ID: rootOrg } });
    expect(r.code, r.stderr).toBe(3);
    expect(r.stderr).toContain('invalid_scope');
    expect(r.stderr).toContain('scope thirdparty.api.webhooks_write');
    expect(apiCalls(r.stderr)).toEqual([`GET /v1/organizations/${rootOrg}/webhook-config`]);
    expect((await cli(['get'], { client: 'sandbox-reader', env: { FLEETCTL_ORGANIZATION_ID: rootOrg } })).code).toBe(0);

    const denied = await raw('PATCH', `/v1/organizations/${rootOrg}/webhook-config`, { is_enabled: false }, 'sandbox-reader', 'thirdparty.api.webhooks_read');
    expect(denied.status).toBe(403);
    expect(denied.body).toMatchObject({ code: 'auth.scope_missing', required_scope: 'thirdparty.api.webhooks_write' });
  });

  it('an organization outside the tenant: 403, exit 4', async () => {
    const r = await cli(['get', '--org', rootOrg], { client: 'sandbox-child' });
    expect(r.code).toBe(4);
    expect(r.stderr).toContain('tenant.forbidden');
    const write = await cli(['topics', 'set', 'events', '--url', URL, '--org', rootOrg, '--if-match', 'x'], { client: 'sandbox-child' });
    expect(write.code).toBe(4);
  });

  it('delete: refused without --yes when it cannot ask (exit 2), then deleted', async () => {
    const refused = await cli(['delete', '--debug']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('webhook configuration not deleted: confirmation required');
    expect(apiCalls(refused.stderr)).toEqual([]);
    const r = await cli(['delete', '--yes']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('deliveries may continue for up to 60 s');
    expect((await cli(['get'])).code).toBe(5);
    expect((await cli(['enable'])).code).toBe(5);
  });
});

describe('webhook-config against a sandbox that allows private webhooks', { timeout: 60_000 }, () => {
  it('--allow-private-url lets a local receiver be registered; without it, exit 2', async () => {
    const local = await startHarness({ allowPrivateWebhooks: true });
    try {
      const url = 'http://127.0.0.1:8099/hooks';
      const refused = await local.cli(['webhook-config', 'create', '--url', url, '--topics', 'events']);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain('pass --allow-private-url');
      const r = await local.cli(['webhook-config', 'create', '--url', url, '--topics', 'events', '--allow-private-url', '-o', 'json']);
      expect(r.code, r.stderr).toBe(0);
      expect((JSON.parse(r.stdout) as { topics: unknown[] }).topics).toEqual([{ type: 'events', is_enabled: true, delivery: { url } }]);
    } finally {
      await local.close();
    }
  });
});
