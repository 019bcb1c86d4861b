// --debug traces every request and response on stderr with every secret redacted.
import { describe, expect, it } from 'vitest';
import { redactForm, redactHeaders, redactJson, REDACTED } from '../../src/shared/redact.js';
import { streamTracer } from '../../src/http/trace.js';
import { IOStreams } from '../../src/io/streams.js';
import { AUTH_URL, BASE_URL, CLIENT_SECRET, newMockAgent, page, problem, stubApi, stubToken } from '../support/mock-http.js';
import { ciEnv, runCli, tempConfigDir } from '../support/cli.js';
import { FakeClock } from '../support/fake-clock.js';

const TOKEN_1 = 'eyJhbGciOi.first-access-token.sig1';
const TOKEN_2 = 'eyJhbGciOi.second-access-token.sig2';

describe('--debug trace', () => {
  it.each([
    ['--debug', ['--debug'], {}],
    ['FLEETCTL_DEBUG=1', [], { FLEETCTL_DEBUG: '1' }],
  ])('%s shows method, URL and status and never the client secret or a token', async (_name, flags, env) => {
    const agent = newMockAgent();
    stubToken(agent, { scope: 'devices_read', token: TOKEN_1 });
    stubToken(agent, { scope: 'devices_read', token: TOKEN_2 });
    stubApi(agent, { path: '/v1/devices', status: 401, body: problem(401, 'auth.token_expired', 'Expired.') });
    stubApi(agent, { path: '/v1/devices', body: page([{ id: 'd1' }]) });
    const result = await runCli([...flags, 'devices', 'list'], { env: ciEnv(tempConfigDir(), env), agent, clock: new FakeClock() });
    expect(result.code).toBe(0);
    const trace = result.stderr;
    expect(trace).toContain(`> POST ${AUTH_URL}/connect/token`);
    expect(trace).toContain(`> GET ${BASE_URL}/v1/devices?limit=50`);
    expect(trace).toMatch(new RegExp(`< 200 POST ${AUTH_URL}/connect/token \\(\\d+ ms\\)`));
    expect(trace).toMatch(new RegExp(`< 401 GET ${BASE_URL.replace(/\./g, '\\.')}/v1/devices\\?limit=50 \\(\\d+ ms\\)`));
    expect(trace).toContain('authorization: Bearer [REDACTED]');
    expect(trace).toContain('client_secret=[REDACTED]');
    expect(trace).toContain('scope=thirdparty.api.devices_read');
    for (const secret of [CLIENT_SECRET, encodeURIComponent(CLIENT_SECRET), TOKEN_1, TOKEN_2, 'first-access-token', 'second-access-token']) {
      expect(trace).not.toContain(secret);
    }
    expect(result.stdout).not.toContain('[debug]');
  });

  it('a failing token request under --debug shows no secret either', async () => {
    const agent = newMockAgent();
    stubToken(agent, { scope: 'devices_read', status: 401, body: { error: 'invalid_client' } });
    const result = await runCli(['--debug', 'devices', 'list'], { env: ciEnv(tempConfigDir()), agent, clock: new FakeClock() });
    expect(result.code).toBe(3);
    expect(result.stderr).toContain(`< 401 POST ${AUTH_URL}/connect/token`);
    expect(result.stderr).not.toContain(CLIENT_SECRET);
  });

  it('without --debug nothing is traced', async () => {
    const agent = newMockAgent();
    stubToken(agent, { scope: 'devices_read' });
    stubApi(agent, { path: '/v1/devices', body: page([]) });
    const result = await runCli(['devices', 'list'], { env: ciEnv(tempConfigDir()), agent, clock: new FakeClock() });
    expect(result.stderr).toBe('');
  });
});

describe('redaction', () => {
  it('hides Authorization, X-Webhook-Key and cookies, keeping the scheme', () => {
    expect(redactHeaders({ Authorization: 'Bearer abc', 'X-Webhook-Key': 'k', cookie: 'c', accept: 'application/json', none: undefined })).toEqual({
      Authorization: `Bearer ${REDACTED}`,
      'X-Webhook-Key': REDACTED,
      cookie: REDACTED,
      accept: 'application/json',
    });
    expect(redactHeaders({ 'X-Api-Key': 'k', 'Api-Secret': 's', 'Idempotency-Key': 'ik', 'X-Keyboard': 'x' })).toEqual({ 'X-Api-Key': REDACTED, 'Api-Secret': REDACTED, 'Idempotency-Key': 'ik', 'X-Keyboard': 'x' });
  });

  it('hides client_secret in a form body', () => {
    expect(redactForm('grant_type=client_credentials&client_id=c&client_secret=s%26x&scope=a+b')).toBe(
      `grant_type=client_credentials&client_id=c&client_secret=${REDACTED}&scope=a+b`,
    );
  });

  it('hides auth_key, access_token and client_secret however deep in JSON', () => {
    expect(redactJson({ auth_key: 'k', nested: [{ access_token: 't', client_secret: 's', keep: 1 }] })).toEqual({
      auth_key: REDACTED,
      nested: [{ access_token: REDACTED, client_secret: REDACTED, keep: 1 }],
    });
  });

  it('a traced JSON request body and a signed download URL lose their secrets', () => {
    const io = IOStreams.forTest();
    const tracer = streamTracer(io.err);
    tracer.request('PUT', `${BASE_URL}/v1/webhook-config`, { 'x-webhook-key': 'wk-secret' }, JSON.stringify({ auth_key: 'ak-secret' }), 'application/json');
    tracer.request('GET', `${BASE_URL}/_sandbox/media/1?expires=9&signature=sig-secret`, {});
    expect(io.stderr()).not.toMatch(/wk-secret|ak-secret|sig-secret/);
    expect(io.stderr()).toContain('expires=9');
  });
});

describe('--debug trace of hostile values', () => {
  it('shows control characters as escapes and cuts a body of megabytes', () => {
    const io = IOStreams.forTest();
    const tracer = streamTracer(io.err);
    tracer.request('PUT', `${BASE_URL}/v1/organizations/o/webhook-config`, { 'if-match': '\u009b2J\u001b[31m' }, JSON.stringify({ name: 'x'.repeat(5_000_000) }), 'application/json');
    const trace = io.stderr();
    expect(trace).toContain('if-match: \\x9b2J\\x1b[31m');
    expect(trace).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
    expect(trace.split('\n').every((line) => line.length <= 810)).toBe(true);
    expect(trace).toMatch(/body: \{"name":"x+… \(\d+ characters\)/);
  });
});
