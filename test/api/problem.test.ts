// Error answers → one ApiError → `Error: ...` on stderr and the documented exit code; JSON mode prints the problem.
import { describe, expect, it } from 'vitest';
import { BASE_URL, newMockAgent, problem, stubApi, stubToken } from '../support/mock-http.js';
import { ciEnv, runCli, tempConfigDir } from '../support/cli.js';
import { FakeClock } from '../support/fake-clock.js';

const ID = '3f2b8c1e-0000-4000-8000-000000000001';

async function getDevice(status: number, body: unknown, opts: { flags?: string[]; headers?: Record<string, string>; times?: number; tokens?: number; document?: unknown } = {}) {
  const agent = newMockAgent();
  stubToken(agent, { scope: 'devices_read', times: opts.tokens ?? 1 });
  stubApi(agent, { path: `/v1/devices/${ID}`, status, body, headers: opts.headers, times: opts.times });
  // a 404 no route answered may be a path in another style: the document is asked how it writes the path
  if (opts.document !== undefined) stubApi(agent, { path: '/openapi/v1.json', status: 404, body: opts.document });
  return runCli(['devices', 'get', ID, '--max-retries', '0', ...(opts.flags ?? [])], { env: ciEnv(tempConfigDir()), agent, clock: new FakeClock() });
}

describe('problem+json to exit codes', () => {
  it.each([
    [400, 'request.invalid_parameter', 2],
    [401, 'auth.token_invalid', 3],
    [403, 'tenant.forbidden', 4],
    [404, 'resource.not_found', 5],
    [409, 'webhook.last_topic', 6],
    [412, 'precondition.failed', 6],
    [422, 'device.capability_missing', 7],
    [429, 'rate_limit.exceeded', 8],
    [500, 'internal.error', 9],
    [502, 'upstream.failed', 9],
    [503, 'service.unavailable', 9],
    // statuses the API does not name, by class
    [405, 'request.method_not_allowed', 2],
    [408, 'request.timeout', 9],
    [410, 'resource.gone', 5],
    [413, 'request.too_large', 2],
    [431, 'request.malformed', 2],
    [418, 'request.teapot', 2],
  ])('HTTP %i (%s) exits %i with `Error: detail (code, HTTP status)`', async (status, code, exit) => {
    const result = await getDevice(status, problem(status, code, `Detail of ${code}.`), { times: status === 401 ? 2 : 1, tokens: status === 401 ? 2 : 1 });
    expect(result.code).toBe(exit);
    expect(result.stdout).toBe('');
    expect(result.stderr.split('\n')[0]).toBe(`Error: Detail of ${code}. (${code}, HTTP ${status})`);
    expect(result.stderr).not.toMatch(/^\s+at /m);
  });

  it('a redirect to another origin is not followed: exit 9, naming where it led and why, and never a success', async () => {
    const result = await getDevice(301, '', { headers: { location: 'https://elsewhere.example/v1/x' } });
    expect(result.code).toBe(9);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^Error: HTTP 301 from https:\/\/[^ ]+: a redirect to "https:\/\/elsewhere\.example\/v1\/x" not followed: it leads to another origin, where an API call would carry its token$/m);
    expect(result.stderr).toMatch(/^Hint: check the base URL/m);
  });

  it('a validation problem names each failing member and its message, terminal-safe; -o json keeps the whole document', async () => {
    // as ASP.NET Core sends it: no detail, no code, the members in `errors`
    const body = { type: 'https://tools.ietf.org/html/rfc9110#section-15.5.1', title: 'One or more validation errors occurred.', status: 400, errors: { employee_id: ['The employee_id field must be a string.'], 'name\u001b[2J': ['Too long.'] } };
    const result = await getDevice(400, body);
    expect(result.code).toBe(2);
    expect(result.stderr.split('\n')[0]).toBe('Error: One or more validation errors occurred: employee_id: The employee_id field must be a string.; name\\x1b[2J: Too long. (HTTP 400)');
    const json = await getDevice(400, body, { flags: ['-o', 'json'] });
    expect(JSON.parse(json.stderr)).toEqual(body);
  });

  it.each([true, false])('api with --jq failing: an error line when stderr is a terminal, the problem document for a program (tty %s)', async (tty) => {
    const agent = newMockAgent();
    stubToken(agent, { scope: 'devices_read' });
    const body = problem(404, 'resource.not_found', `No device ${ID}.`);
    stubApi(agent, { path: `/v1/devices/${ID}`, status: 404, body });
    // this service serves no document of its own: fleetctl says so once and uses the bundled one
    stubApi(agent, { path: '/openapi/v1.json', status: 404, body: {} });
    const result = await runCli(['api', 'GET', `/v1/devices/${ID}`, '--jq', '.name', '--max-retries', '0'], { env: ciEnv(tempConfigDir(), { NO_COLOR: '1' }), agent, clock: new FakeClock(), tty });
    expect([result.code, result.stdout]).toEqual([5, '']);
    // the line before is the warning that the service serves no document
    const last = result.stderr.trimEnd().split('\n').at(-1)!;
    if (tty) expect(last).toBe(`Error: No device ${ID}. (resource.not_found, HTTP 404)`);
    else expect(JSON.parse(last)).toEqual(body);
  });

  it('a list of errors with a detail: the detail, then each member; beyond four, "and N more"', async () => {
    const errors = Array.from({ length: 6 }, (_, i) => ({ pointer: `/field_${i}`, reason: `bad ${i}` }));
    const result = await getDevice(400, problem(400, 'request.invalid_body', 'The body is invalid.', { errors }));
    expect(result.stderr.split('\n')[0]).toBe('Error: The body is invalid: /field_0: bad 0; /field_1: bad 1; /field_2: bad 2; /field_3: bad 3; and 2 more (request.invalid_body, HTTP 400)');
  });

  it('a 403 for a missing scope names the scope in the hint', async () => {
    const body = problem(403, 'auth.scope_missing', 'The token lacks a scope.', { required_scope: 'thirdparty.api.devices_read' });
    const result = await getDevice(403, body);
    expect(result.code).toBe(4);
    expect(result.stderr).toMatch(/^Hint: .*thirdparty\.api\.devices_read/m);
  });

  it('a 403 scope problem without required_scope still names the scope the command needs', async () => {
    const result = await getDevice(403, problem(403, 'auth.scope_missing', 'The token lacks a scope.'));
    expect(result.code).toBe(4);
    expect(result.stderr).toMatch(/^Hint: .*thirdparty\.api\.devices_read/m);
  });

  it('a 403 with a code of the service\'s own names both causes the spec gives, with the scope the call needs', async () => {
    const result = await getDevice(403, { code: 'access.denied' });
    expect(result.code).toBe(4);
    expect(result.stderr).toContain('Hint: either your credentials lack the scope thirdparty.api.devices_read (ask an administrator to grant it), or the organization is outside their tenant\n');
  });

  it('a 401 hints at checking the credentials', async () => {
    const result = await getDevice(401, problem(401, 'auth.token_invalid', 'Bad token.'), { times: 2, tokens: 2 });
    expect(result.stderr).toMatch(/^Hint: check the credentials/m);
  });

  it.each([['-o', 'json'], ['-o', 'ndjson'], ['--json']])('with %s the problem document goes to stderr as one JSON line', async (...flags) => {
    const body = problem(404, 'resource.not_found', 'No device with this id.', { instance: `/v1/devices/${ID}` });
    const result = await getDevice(404, body, { flags: flags.filter(Boolean) as string[] });
    expect(result.code).toBe(5);
    expect(result.stdout).toBe('');
    const lines = result.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0])).toEqual(body);
  });
});

describe('a 404 for a collection', () => {
  async function listVehicles(served: { status: number; body: unknown }) {
    const agent = newMockAgent();
    stubToken(agent, { scope: 'vehicles_read' });
    stubApi(agent, { path: '/v1/vehicles', status: 404, body: { code: 'path.unknown' } });
    stubApi(agent, { path: '/openapi/v1.json', ...served });
    return runCli(['vehicles', 'list'], { env: ciEnv(tempConfigDir()), agent, clock: new FakeClock() });
  }

  it('a service whose own document lacks the path: the hint says so, and names `fleetctl api --list`', async () => {
    const result = await listVehicles({ status: 200, body: { openapi: '3.1.1', info: { title: 't', version: '1.0.0' }, paths: { '/v1/devices': { get: { operationId: 'x', responses: {} } } } } });
    expect(result.code).toBe(5);
    expect(result.stderr).toContain("Hint: the service's API document lists no GET /v1/vehicles:");
  });

  it('a service that serves no document: no guess, and no warning about the document either', async () => {
    const result = await listVehicles({ status: 404, body: { code: 'nope' } });
    expect(result.code).toBe(5);
    // a problem with only its code, all the spec promises: the code is said
    expect(result.stderr).toBe('Error: HTTP 404 (path.unknown)\n');
  });
});

describe('a wrong base URL', () => {
  it('a base URL ending in /v1 (route.not_found for /v1/v1/...) gets a hint saying so', async () => {
    const agent = newMockAgent();
    stubToken(agent, { scope: 'devices_read' });
    stubApi(agent, { path: '/v1/v1/devices', status: 404, body: problem(404, 'route.not_found', 'No route matches /v1/v1/devices.') });
    const env = ciEnv(tempConfigDir(), { FLEETCTL_BASE_URL: `${BASE_URL}/v1` });
    const result = await runCli(['devices', 'list'], { env, agent, clock: new FakeClock() });
    expect(result.code).toBe(5);
    expect(result.stderr).toContain('Hint: the base URL must not end in /v1');
  });

  it('the /v1/v1/ hint whatever code the service gives its 404 (or none but a code)', async () => {
    for (const body of [problem(404, 'path.unknown', 'Nothing here.'), { code: 'not_found' }]) {
      const agent = newMockAgent();
      stubToken(agent, { scope: 'devices_read' });
      stubApi(agent, { path: '/v1/v1/devices', status: 404, body });
      const result = await runCli(['devices', 'list'], { env: ciEnv(tempConfigDir(), { FLEETCTL_BASE_URL: `${BASE_URL}/v1` }), agent, clock: new FakeClock() });
      expect(result.code).toBe(5);
      expect(result.stderr).toContain('Hint: the base URL must not end in /v1');
    }
  });

  it('a 404 page that is not a problem document points at the base URL; a resource 404 does not', async () => {
    expect((await getDevice(404, '<html>Not Found</html>', { document: '<html>Not Found</html>' })).stderr).toContain('Hint: check the base URL');
    expect((await getDevice(404, problem(404, 'resource.not_found', 'Device x was not found.'))).stderr).not.toContain('Hint:');
  });
});

describe('error answers that are not problem+json', () => {
  it('an HTML page from a proxy gives one clear line, exit 9', async () => {
    const result = await getDevice(502, '<html><head><title>502 Bad Gateway</title></head><body>nginx</body></html>');
    expect(result.code).toBe(9);
    expect(result.stdout).toBe('');
    expect(result.stderr.split('\n')[0]).toBe(`Error: HTTP 502 from ${BASE_URL} with a non-JSON answer (text/plain)`);
    expect(result.stderr).not.toContain('<html>');
    expect(result.stderr.split('\n').filter((line) => line.startsWith('Error:'))).toHaveLength(1);
    expect(result.stderr).not.toMatch(/^\s+at /m);
  });

  it('an empty 502 gives one clear line, exit 9', async () => {
    const result = await getDevice(502, undefined);
    expect(result.code).toBe(9);
    expect(result.stderr.split('\n')[0]).toBe(`Error: HTTP 502 from ${BASE_URL} with an empty answer`);
    expect(result.stderr).not.toMatch(/^\s+at /m);
  });

  it('a problem whose detail and title are not text falls back to the status and its code, never prints "5" or "null"', async () => {
    const result = await getDevice(404, { detail: null, title: 5, code: 'resource.not_found' });
    expect(result.code).toBe(5);
    expect(result.stderr.split('\n')[0]).toBe('Error: HTTP 404 (resource.not_found)');
  });

  it('JSON that is not a problem document is called that, not "non-JSON"', async () => {
    const result = await getDevice(400, [1, 2]);
    expect(result.code).toBe(2);
    expect(result.stderr.split('\n')[0]).toBe(`Error: HTTP 400 from ${BASE_URL} with a JSON answer that is not a problem document (application/problem+json)`);
  });

  it('with -o json a non-JSON answer still gives one JSON line on stderr', async () => {
    const result = await getDevice(502, '', { flags: ['-o', 'json'] });
    expect(result.code).toBe(9);
    const lines = result.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0])).toMatchObject({ status: 502 });
  });
});

describe('problem text is made harmless', () => {
  it('control characters in detail and title are shown, never sent to the terminal', async () => {
    const hostile = problem(404, 'resource.not_found', 'Device \u001b]0;pwned\u0007 \u001b[2Jgone\u009b', { title: 'x\u001b[31m' });
    const result = await getDevice(404, hostile, { flags: [] });
    expect(result.code).toBe(5);
    expect(result.stderr).not.toMatch(/[\u001b\u0007\u009b]/);
    expect(result.stderr).toContain('Device \\x1b]0;pwned\\x07 \\x1b[2Jgone\\x9b');
  });

  it('with -o json the problem stays exact JSON, escapes as JSON escapes', async () => {
    const hostile = problem(404, 'resource.not_found', 'bad \u001b[2J');
    const result = await getDevice(404, hostile, { flags: ['-o', 'json'] });
    expect(result.stderr).not.toContain('\u001b');
    expect(JSON.parse(result.stderr).detail).toBe('bad \u001b[2J');
  });
});
