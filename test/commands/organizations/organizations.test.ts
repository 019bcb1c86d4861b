import { describe, expect, it } from 'vitest';
import { newOrganizationsListCommand, organizationsListRun } from '../../../src/commands/organizations/list.js';
import { newOrganizationsGetCommand, organizationsGetRun } from '../../../src/commands/organizations/get.js';
import { newOrganizationsDescendantsCommand, organizationsDescendantsRun, type OrganizationsDescendantsOptions } from '../../../src/commands/organizations/descendants.js';
import { fakeDeps, parseVerb, recordRun } from '../fake-deps.js';

const ROOT = '11111111-1111-4111-8111-111111111111';
const CHILD = '77777777-7777-4777-8777-777777777777';
const paging = { limit: 50, cursor: undefined, all: false, maxItems: undefined };

describe('organizations', () => {
  it.each([true, false])('list renders the tenant (tty %s)', async (tty) => {
    const f = fakeDeps({
      tty,
      answers: [{ method: 'GET', path: '/v1/organizations?limit=50', body: { data: [{ id: ROOT, name: 'Acme', parent_id: null }, { id: CHILD, name: 'Acme North', parent_id: ROOT }], has_more: false, next_cursor: null } }],
    });
    await organizationsListRun(f.deps, { paging });
    expect(f.sent[0]!.scope).toBe('thirdparty.api.organizations_read');
    if (tty) expect(f.io.stdout()).toMatch(/ID.*NAME[^]*Acme North/);
    else expect(f.io.stdout()).toBe(`id\tname\tparent_id\n${ROOT}\tAcme\t\n${CHILD}\tAcme North\t${ROOT}\n`);
  });

  it('list takes paging flags only', async () => {
    const { run, calls } = recordRun<{ paging: unknown }>();
    await parseVerb(newOrganizationsListCommand(fakeDeps().deps, run), ['--all']);
    expect(calls[0]).toEqual({ paging: { ...paging, all: true } });
    await expect(parseVerb(newOrganizationsListCommand(fakeDeps().deps, run), ['--fleet-id', ROOT])).rejects.toThrow("unknown option '--fleet-id'");
  });

  it('get checks the id, then asks for it', async () => {
    const f = fakeDeps();
    await expect(parseVerb(newOrganizationsGetCommand(f.deps), ['acme'])).rejects.toThrow('organization id must be a UUID');
    const g = fakeDeps({ format: 'json', answers: [{ method: 'GET', path: `/v1/organizations/${ROOT}`, body: { id: ROOT, name: 'Acme', parent_id: null } }] });
    await organizationsGetRun(g.deps, { id: ROOT });
    expect(JSON.parse(g.io.stdout())).toEqual({ id: ROOT, name: 'Acme', parent_id: null });
  });

  it('a 403 tenant.forbidden keeps exit 4', async () => {
    const f = fakeDeps({ answers: [{ method: 'GET', path: `/v1/organizations/${ROOT}`, status: 403, body: { status: 403, code: 'tenant.forbidden' } }] });
    await expect(organizationsGetRun(f.deps, { id: ROOT })).rejects.toMatchObject({ exitCode: 4, code: 'tenant.forbidden' });
  });

  it('descendants parses and pages', async () => {
    const { run, calls } = recordRun<OrganizationsDescendantsOptions>();
    await parseVerb(newOrganizationsDescendantsCommand(fakeDeps().deps, run), [ROOT.toUpperCase(), '--limit', '2']);
    expect(calls[0]).toEqual({ id: ROOT, paging: { ...paging, limit: 2 } });
    await expect(parseVerb(newOrganizationsDescendantsCommand(fakeDeps().deps, run), ['x'])).rejects.toThrow('organization id must be a UUID');

    const f = fakeDeps({ tty: true, format: 'ndjson', answers: [{ method: 'GET', path: `/v1/organizations/${ROOT}/descendants?limit=2`, body: { data: [{ id: CHILD, name: 'N', parent_id: ROOT }], has_more: true, next_cursor: 'n' } }] });
    await organizationsDescendantsRun(f.deps, { id: ROOT, paging: { limit: 2, all: false } });
    expect(f.io.stdout()).toBe(`${JSON.stringify({ id: CHILD, name: 'N', parent_id: ROOT })}\n`);
    expect(f.io.stderr()).toBe('More results: add --cursor n for the next page, or --all for every page.\n');
  });
});
