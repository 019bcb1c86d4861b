import { describe, expect, it } from 'vitest';
import { newApiCommand } from '../../../src/commands/api/index.js';
import { OPERATIONS } from '../../../src/openapi/operations.js';
import { fakeDeps, parseVerb, type ScriptedAnswer } from '../fake-deps.js';
import { tempDir } from '../../support/temp-dir.js';

/** A served document that differs from the bundled one: /v1/widgets exists only here, with its own scope. */
const served = {
  openapi: '3.1.1',
  paths: {
    '/v1/widgets': { get: { operationId: 'listWidgets', security: [{ oauth2: ['thirdparty.api.widgets_read'] }] } },
    '/v1/drivers/{id}': { put: { operationId: 'updateDriver', security: [{ oauth2: ['thirdparty.api.drivers_write'] }] } },
    '/v1/organizations': { get: { operationId: 'listOrganizations', security: [{ oauth2: ['thirdparty.api.organizations_read'] }] } },
  },
};
const documentAnswer: ScriptedAnswer = { method: 'GET', path: '/openapi/v1.json', body: served };

function setup(answers: ScriptedAnswer[], extra: Parameters<typeof fakeDeps>[0] = {}) {
  const configDir = tempDir('fleetctl-api-');
  const f = fakeDeps({ answers, configDir, ...extra });
  return { ...f, configDir };
}

describe('fleetctl api', () => {
  it('takes the scope from the served document and prints the JSON answer', async () => {
    const f = setup([documentAnswer, { method: 'GET', path: '/v1/widgets?color=red', body: { data: [{ id: 1 }], has_more: false } }]);
    await parseVerb(newApiCommand(f.deps), ['GET', '/v1/widgets', '-f', 'color=red']);
    f.assertAllAnswered();
    expect(f.sent[1]!.scope).toBe('thirdparty.api.widgets_read');
    expect(JSON.parse(f.io.stdout())).toEqual({ data: [{ id: 1 }], has_more: false });
    expect(f.io.stderr()).toBe('');
  });

  it('caches the document per base URL: the second call does not fetch it', async () => {
    const f = setup([documentAnswer, { method: 'GET', path: '/v1/widgets', body: {} }, { method: 'GET', path: '/v1/widgets', body: {} }]);
    await parseVerb(newApiCommand(f.deps), ['GET', '/v1/widgets']);
    await parseVerb(newApiCommand(f.deps), ['GET', '/v1/widgets']);
    f.assertAllAnswered();
  });

  it('falls back to the bundled document, with a warning, when the served one cannot be read', async () => {
    const f = setup([{ ...documentAnswer, status: 500, body: { status: 500 } }, { method: 'GET', path: '/v1/fleets', body: { data: [], has_more: false } }]);
    await parseVerb(newApiCommand(f.deps), ['GET', '/v1/fleets']);
    expect(f.sent[1]!.scope).toBe('thirdparty.api.fleets_read');
    expect(f.io.stderr()).toBe('Warning: could not read the API document from https://api.fleet.test/openapi/v1.json (HTTP 500); using the one bundled with fleetctl\n');
  });

  it('sends -f fields of a PUT as the JSON body', async () => {
    const id = '33333333-3333-4333-8333-333333333333';
    const f = setup([documentAnswer, { method: 'PUT', path: `/v1/drivers/${id}`, body: { id, status: 'inactive' } }]);
    await parseVerb(newApiCommand(f.deps), ['PUT', `/v1/drivers/${id}`, '-f', 'status=inactive', '-H', 'X-Request-Id: r1']);
    expect(f.sent[1]!.json).toEqual({ status: 'inactive' });
    expect(f.sent[1]!.headers['X-Request-Id']).toBe('r1');
    expect(f.sent[1]!.scope).toBe('thirdparty.api.drivers_write');
  });

  it('reads the body from --input -', async () => {
    const f = setup([documentAnswer, { method: 'PUT', path: '/v1/drivers/d1', body: { ok: true } }], { stdin: '{"first_name":"Ada"}' });
    await parseVerb(newApiCommand(f.deps), ['PUT', '/v1/drivers/d1', '--input', '-']);
    expect(f.sent[1]!.json).toEqual({ first_name: 'Ada' });
  });

  it('an unknown path is exit 2 naming it, before any API request', async () => {
    const f = setup([documentAnswer]);
    await expect(parseVerb(newApiCommand(f.deps), ['GET', '/v1/nothing/here'])).rejects.toMatchObject({
      message: '"/v1/nothing/here" is not a path of the API document',
      exitCode: 2,
    });
    const g = setup([documentAnswer]);
    await expect(parseVerb(newApiCommand(g.deps), ['DELETE', '/v1/organizations'])).rejects.toThrow('DELETE "/v1/organizations" is not an operation of the API: that path takes GET');
  });

  it('--paginate follows next_cursor and emits the items', async () => {
    const f = setup([
      documentAnswer,
      { method: 'GET', path: '/v1/organizations?limit=2', body: { data: [{ id: 'a' }, { id: 'b' }], next_cursor: 'c2', has_more: true } },
      { method: 'GET', path: '/v1/organizations?limit=2&cursor=c2', body: { data: [{ id: 'c' }], next_cursor: null, has_more: false } },
    ]);
    await parseVerb(newApiCommand(f.deps), ['GET', '/v1/organizations', '-f', 'limit=2', '--paginate']);
    f.assertAllAnswered();
    expect(JSON.parse(f.io.stdout())).toEqual([{ id: 'a' }, { id: 'b' }, { id: 'c' }]);
  });

  it('--paginate: a later page that fails after items were printed says where to resume, as -f cursor=', async () => {
    const f = setup([
      documentAnswer,
      { method: 'GET', path: '/v1/organizations?limit=2', body: { data: [{ id: 'a' }, { id: 'b' }], next_cursor: 'c 2', has_more: true } },
      { method: 'GET', path: '/v1/organizations?limit=2&cursor=c+2', status: 400, body: { title: 'bad', status: 400, code: 'request.invalid' } },
    ]);
    await expect(parseVerb(newApiCommand(f.deps), ['GET', '/v1/organizations', '-f', 'limit=2', '--paginate'])).rejects.toMatchObject({ exitCode: 2 });
    expect(JSON.parse(f.io.stdout())).toEqual([{ id: 'a' }, { id: 'b' }]);
    expect(f.io.stderr()).toBe("Stopped after 2 items. To resume from there: the same command with -f cursor='c 2'\n");
  });

  it('--paginate as a piped table takes its columns from the first item', async () => {
    const f = setup([documentAnswer, { method: 'GET', path: '/v1/organizations?limit=50', body: { data: [{ id: 'a', name: 'A' }], has_more: false } }], { format: 'table' });
    f.deps.globals = () => ({ output: 'table' });
    await parseVerb(newApiCommand(f.deps), ['GET', '/v1/organizations', '--paginate']);
    expect(f.io.stdout()).toBe('id\tname\na\tA\n');
  });

  it('--list shows every operation with its scope (bundled without a base URL)', async () => {
    const f = setup([]);
    const settings = await f.deps.settings();
    f.deps.settings = async () => ({ ...settings, base_url: { value: undefined, source: undefined } });
    await parseVerb(newApiCommand(f.deps), ['--list']);
    const lines = f.io.stdout().trim().split('\n');
    expect(lines[0]).toBe('method\tpath\tscope\toperation_id');
    expect(lines).toHaveLength(OPERATIONS.length + 1);
    expect(lines).toContain('POST\t/v1/devices/{hardwareId}/commands/reboot\tthirdparty.api.device_commands_reboot\trebootDevice');
    expect(f.io.stderr()).toContain('No base URL configured');
    await expect(parseVerb(newApiCommand(f.deps), ['--list', 'GET'])).rejects.toThrow('--list takes no METHOD or PATH');
  });
});
