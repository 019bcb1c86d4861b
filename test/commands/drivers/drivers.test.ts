import { describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { newDriversListCommand, driversListRun, type DriversListOptions } from '../../../src/commands/drivers/list.js';
import { newDriversGetCommand, driversGetRun } from '../../../src/commands/drivers/get.js';
import { newDriversCreateCommand, driversCreateRun, type DriversCreateOptions } from '../../../src/commands/drivers/create.js';
import { newDriversUpdateCommand, driversUpdateRun, type DriversUpdateOptions } from '../../../src/commands/drivers/update.js';
import { ApiError } from '../../../src/errors.js';
import { fakeDeps, parseVerb, recordRun } from '../fake-deps.js';
import { tempDir } from '../../support/temp-dir.js';

const ORG = '11111111-1111-4111-8111-111111111111';
const FLEET = '22222222-2222-4222-8222-222222222222';
const DRIVER = '33333333-3333-4333-8333-333333333333';
const driver = {
  id: DRIVER,
  organization_id: ORG,
  fleet_id: FLEET,
  first_name: 'Ada',
  last_name: 'Lovelace',
  email: null,
  phone: null,
  license_number: null,
  employee_id: 'E1',
  status: 'active',
  created_at: '2024-01-01T00:00:00Z',
  updated_at: '2024-01-01T00:00:00Z',
};

function tempFile(text: string): string {
  const file = path.join(tempDir('drivers-'), 'driver.json');
  writeFileSync(file, text);
  return file;
}

describe('drivers list: parse', () => {
  const cases: { argv: string[]; want?: Partial<DriversListOptions>; error?: string }[] = [
    { argv: [], want: { organizationId: undefined, fleetId: undefined, paging: { limit: 50, cursor: undefined, all: false, maxItems: undefined } } },
    { argv: ['--fleet-id', FLEET.toUpperCase(), '--limit', '5', '--all'], want: { fleetId: FLEET, paging: { limit: 5, cursor: undefined, all: true, maxItems: undefined } } },
    { argv: ['--organization-id', 'nope'], error: '--organization-id must be a UUID (like 3f2b8c1e-0000-4000-8000-000000000000), got "nope"' },
    { argv: ['--limit', '501'], error: '--limit must be from 1 to 500, got 501' },
  ];
  for (const c of cases) {
    it(c.argv.join(' ') || '(no flags)', async () => {
      const { run, calls } = recordRun<DriversListOptions>();
      const promise = parseVerb(newDriversListCommand(fakeDeps().deps, run), c.argv);
      if (c.error) return expect(promise).rejects.toThrow(c.error);
      await promise;
      expect(calls[0]).toMatchObject(c.want!);
    });
  }
});

describe('drivers list: run', () => {
  it.each([true, false])('renders a page (tty %s), and the hint for the next only on a terminal', async (tty) => {
    const f = fakeDeps({
      tty,
      answers: [{ method: 'GET', path: `/v1/drivers?fleet_id=${FLEET}&limit=1`, body: { data: [driver], next_cursor: 'c2', has_more: true } }],
    });
    await driversListRun(f.deps, { fleetId: FLEET, paging: { limit: 1, all: false } });
    f.assertAllAnswered();
    expect(f.sent[0]!.scope).toBe('thirdparty.api.drivers_read');
    if (tty) expect(f.io.stdout()).toMatch(new RegExp(`ID.*FIRST NAME.*LAST NAME.*STATUS.*EMPLOYEE ID[^]*${DRIVER}.*Ada.*Lovelace.*active.*E1`));
    else expect(f.io.stdout()).toBe(`id\tfirst_name\tlast_name\tstatus\tfleet_id\temail\temployee_id\n${DRIVER}\tAda\tLovelace\tactive\t${FLEET}\t\tE1\n`);
    const leftOut = /^Not shown at \d+ columns: organization_id, fleet_id, .*; -o wide shows them\n/;
    if (tty) expect(f.io.stderr()).toMatch(leftOut);
    expect(f.io.stderr().replace(leftOut, '')).toBe(tty ? 'More results: add --cursor c2 for the next page, or --all for every page.\n' : '');
  });

  it('streams NDJSON', async () => {
    const f = fakeDeps({ format: 'ndjson', answers: [{ method: 'GET', path: '/v1/drivers?limit=50', body: { data: [driver, driver], next_cursor: null, has_more: false } }] });
    await driversListRun(f.deps, { paging: { limit: 50, all: false } });
    expect(f.io.stdout()).toBe(`${JSON.stringify(driver)}\n${JSON.stringify(driver)}\n`);
    expect(f.io.stderr()).toBe('');
  });
});

describe('drivers get', () => {
  it('refuses a driver id that is not a uuid, before any request', async () => {
    const f = fakeDeps();
    await expect(parseVerb(newDriversGetCommand(f.deps), ['42'])).rejects.toThrow('driver id must be a UUID (like 3f2b8c1e-0000-4000-8000-000000000000), got "42"');
    expect(f.sent).toEqual([]);
  });

  it('prints the driver as JSON', async () => {
    const f = fakeDeps({ format: 'json', answers: [{ method: 'GET', path: `/v1/drivers/${DRIVER}`, body: driver }] });
    await driversGetRun(f.deps, { id: DRIVER });
    expect(JSON.parse(f.io.stdout())).toEqual(driver);
  });

  it('turns a 404 into an ApiError (exit 5)', async () => {
    const f = fakeDeps({ answers: [{ method: 'GET', path: `/v1/drivers/${DRIVER}`, status: 404, body: { status: 404, code: 'resource.not_found', detail: 'Driver not found' } }] });
    const error = await driversGetRun(f.deps, { id: DRIVER }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).exitCode).toBe(5);
  });
});

describe('drivers create: parse', () => {
  const full = ['--organization-id', ORG, '--fleet-id', FLEET, '--first-name', 'Ada', '--last-name', 'Lovelace'];
  const cases: { name: string; argv: string[]; stdin?: string; file?: string; org?: string; want?: Record<string, unknown>; error?: string }[] = [
    { name: 'all flags', argv: [...full, '--email', 'ada@example.com'], want: { organization_id: ORG, fleet_id: FLEET, first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' } },
    { name: 'organization from the profile', org: ORG, argv: ['--fleet-id', FLEET, '--first-name', 'A', '--last-name', 'B'], want: { organization_id: ORG, fleet_id: FLEET, first_name: 'A', last_name: 'B' } },
    {
      name: 'file, flags override',
      argv: ['--from-file', '-', '--first-name', 'Grace'],
      stdin: JSON.stringify({ organization_id: ORG, fleet_id: FLEET, first_name: 'X', last_name: 'Hopper', phone: null }),
      want: { organization_id: ORG, fleet_id: FLEET, first_name: 'Grace', last_name: 'Hopper', phone: null },
    },
    { name: 'missing fields named', argv: ['--first-name', 'Ada'], error: 'missing required fields: --organization-id, --fleet-id, --last-name' },
    { name: 'bad fleet uuid', argv: [...full.slice(0, 2), '--fleet-id', 'f1', ...full.slice(4)], error: '--fleet-id: must be a valid uuid' },
    { name: 'long name: the document\'s message', argv: [...full.slice(0, 6), '--last-name', 'x'.repeat(101)], error: '--last-name: must be a string of 1 to 100 characters, not all blank' },
    { name: 'bad email', argv: [...full, '--email', 'nope'], error: '--email: must be null or an email address of at most 254 characters' },
    { name: '270-character email: refused as the document says', argv: [...full, '--email', `${'a'.repeat(258)}@example.com`], error: '--email: must be null or an email address of at most 254 characters' },
    { name: '100-character phone: refused as the document says', argv: [...full, '--phone', '5'.repeat(100)], error: '--phone: must be null or a string of 1 to 64 characters, not all blank' },
    { name: 'a digit-only phone stays text', argv: [...full, '--phone', '5550100'], want: { organization_id: ORG, fleet_id: FLEET, first_name: 'Ada', last_name: 'Lovelace', phone: '5550100' } },
    { name: '--field adds a member, typed as the document says', argv: [...full, '--field', 'employee_id=1815', '--field', 'email=null'], want: { organization_id: ORG, fleet_id: FLEET, first_name: 'Ada', last_name: 'Lovelace', employee_id: '1815', email: null } },
    { name: '--field without =', argv: [...full, '--field', 'nickname'], error: '--field takes name=value, got "nickname"' },
    { name: '--field of a member the document does not name', argv: [...full, '--field', 'nickname=Countess'], error: '--field nickname: is not a known member' },
    { name: 'not JSON', argv: ['--from-file', '-'], stdin: '{', error: '--from-file (stdin) is not valid JSON' },
    { name: 'unknown member', argv: ['--from-file', 'FILE', ...full], file: JSON.stringify({ first_name: 'A', nickname: 'x' }), error: 'is not a known member' },
    { name: 'wrong type in file', argv: ['--from-file', '-', ...full.slice(0, 4), '--last-name', 'L'], stdin: JSON.stringify({ first_name: 7 }), error: '"first_name" in stdin: must be a string of 1 to 100 characters, not all blank' },
    { name: 'status is not a create field', argv: [...full, '--status', 'active'], error: "unknown option '--status'" },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const f = fakeDeps({ stdin: c.stdin, organizationId: c.org });
      const { run, calls } = recordRun<DriversCreateOptions>();
      const argv = c.file ? c.argv.map((a) => (a === 'FILE' ? tempFile(c.file!) : a)) : c.argv;
      const promise = parseVerb(newDriversCreateCommand(f.deps, run), argv);
      if (c.error) {
        await expect(promise).rejects.toThrow(c.error);
        expect(calls).toEqual([]);
        return;
      }
      await promise;
      expect(calls[0]!.body).toEqual(c.want);
    });
  }

  it('asks for the missing required fields on a terminal: the fleet from a list, its organization from its record, names as text', async () => {
    const fleets = { method: 'GET', path: '/v1/fleets?limit=100', body: { data: [{ id: FLEET, name: 'North Vans', organization_id: ORG }], next_cursor: null, has_more: false } } as const;
    const fleet = { method: 'GET', path: `/v1/fleets/${FLEET}`, body: { id: FLEET, name: 'North Vans', organization_id: ORG } } as const;
    const g = fakeDeps({ tty: true, answers: [fleets, fleet], searches: [{ choose: 'North Vans' }], inputs: ['Lovelace'] });
    const rec = recordRun<DriversCreateOptions>();
    await parseVerb(newDriversCreateCommand(g.deps, rec.run), ['--first-name', 'Ada']);
    // the fleet from a list, the last name as text: the organization is not asked
    expect(g.prompts).toEqual(['Fleet (type a name)', 'Last name']);
    expect(rec.calls[0]!.body).toEqual({ organization_id: ORG, fleet_id: FLEET, first_name: 'Ada', last_name: 'Lovelace' });
    expect(g.io.stderr()).toContain(`Organization: ${ORG} (the fleet's).`);
  });

  it("a fleet whose record names no organization (and no profile's): the organization is picked from a list", async () => {
    const fleet = { method: 'GET', path: `/v1/fleets/${FLEET}`, body: { id: FLEET, name: 'North Vans' } } as const;
    const orgs = { method: 'GET', path: '/v1/organizations?limit=100', body: { data: [{ id: ORG, name: 'Acme North' }], next_cursor: null, has_more: false } } as const;
    const g = fakeDeps({ tty: true, answers: [fleet, orgs], searches: [{ choose: 'Acme North' }] });
    const rec = recordRun<DriversCreateOptions>();
    await parseVerb(newDriversCreateCommand(g.deps, rec.run), ['--fleet-id', FLEET, '--first-name', 'Ada', '--last-name', 'L']);
    expect(g.prompts).toEqual(['Organization (type a name)']);
    expect(rec.calls[0]!.body).toMatchObject({ organization_id: ORG, fleet_id: FLEET });
  });

  it.each([
    ['not a terminal', { tty: false }],
    ['--no-input', { tty: true, noInput: true }],
    ['CI=true', { tty: true, env: { CI: 'true' } }],
  ])('%s: never asks; the missing flags are named, exit 2, nothing listed', async (_name, how) => {
    const f = fakeDeps({ tty: how.tty });
    if ('noInput' in how) f.io.noInput = true;
    if ('env' in how) (f.io as unknown as { env: Record<string, string> }).env = how.env;
    await expect(parseVerb(newDriversCreateCommand(f.deps, recordRun().run), ['--first-name', 'Ada'])).rejects.toMatchObject({ exitCode: 2, message: expect.stringContaining('--fleet-id') });
    expect([f.sent, f.prompts, f.shown]).toEqual([[], [], []]);
  });
});

describe('drivers create: run', () => {
  it.each([true, false])('prints the driver and its Location on stderr (tty %s)', async (tty) => {
    const body = { organization_id: ORG, fleet_id: FLEET, first_name: 'Ada', last_name: 'Lovelace' };
    const f = fakeDeps({
      tty,
      answers: [{ method: 'POST', path: '/v1/drivers', status: 201, body: driver, headers: { location: `https://api.fleet.test/v1/drivers/${DRIVER}` } }],
    });
    await driversCreateRun(f.deps, { body });
    expect(f.sent[0]!.json).toEqual(body);
    expect(f.sent[0]!.scope).toBe('thirdparty.api.drivers_write');
    expect(f.io.stderr()).toBe(`Location: https://api.fleet.test/v1/drivers/${DRIVER}\n`);
    if (!tty) expect(f.io.stdout()).toContain(`id\t${DRIVER}\n`);
    else expect(f.io.stdout()).toContain('Lovelace');
  });
});

describe('drivers update', () => {
  const cases: { name: string; argv: string[]; stdin?: string; want?: Record<string, unknown>; error?: string }[] = [
    { name: 'status', argv: [DRIVER, '--status', 'inactive'], want: { status: 'inactive' } },
    { name: 'empty clears', argv: [DRIVER, '--email', '', '--phone', '+1 555'], want: { email: null, phone: '+1 555' } },
    { name: 'from stdin', argv: [DRIVER, '--from-file', '-'], stdin: '{"fleet_id":"' + FLEET + '"}', want: { fleet_id: FLEET } },
    { name: 'nothing', argv: [DRIVER], error: 'nothing to update: give at least one field' },
    { name: 'empty file', argv: [DRIVER, '--from-file', '-'], stdin: '{}', error: 'nothing to update' },
    { name: 'bad id', argv: ['x', '--status', 'active'], error: 'driver id must be a UUID' },
    { name: 'bad status', argv: [DRIVER, '--status', 'gone'], error: '--status: must be one of active, inactive' },
    { name: 'bad status in file', argv: [DRIVER, '--from-file', '-'], stdin: '{"status":"gone"}', error: '"status" in stdin: must be one of active, inactive' },
    { name: 'organization is not updatable', argv: [DRIVER, '--from-file', '-'], stdin: `{"organization_id":"${ORG}"}`, error: '"organization_id" in stdin: is not a known member' },
    { name: 'blank first name', argv: [DRIVER, '--first-name', ' '], error: '--first-name: must be a string of 1 to 100 characters, not all blank' },
    { name: '--field over a flag', argv: [DRIVER, '--phone', '1', '--field', 'phone=+44 20'], want: { phone: '+44 20' } },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const f = fakeDeps({ stdin: c.stdin });
      const { run, calls } = recordRun<DriversUpdateOptions>();
      const promise = parseVerb(newDriversUpdateCommand(f.deps, run), c.argv);
      if (c.error) return expect(promise).rejects.toThrow(c.error);
      await promise;
      expect(calls[0]).toEqual({ id: DRIVER, body: c.want });
    });
  }

  it('sends PUT with the fields and prints the driver', async () => {
    const f = fakeDeps({ format: 'json', answers: [{ method: 'PUT', path: `/v1/drivers/${DRIVER}`, body: { ...driver, status: 'inactive' } }] });
    await driversUpdateRun(f.deps, { id: DRIVER, body: { status: 'inactive' } });
    expect(f.sent[0]!.json).toEqual({ status: 'inactive' });
    expect(JSON.parse(f.io.stdout()).status).toBe('inactive');
  });
});

/** A service whose document differs from fleetctl's: its own limits and its own member names. */
function servedWith(create: Record<string, unknown>, update: Record<string, unknown> = { type: 'object', properties: { given_name: { type: 'string' } }, additionalProperties: false }) {
  const json = { content: { 'application/json': { schema: { $ref: '#/components/schemas/NewDriver' } } } };
  return {
    openapi: '3.1.1',
    paths: {
      '/v1/drivers': { post: { requestBody: json, responses: { '201': { description: 'created' } } } },
      '/v1/drivers/{driverId}': { put: { requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/DriverChange' } } } }, responses: {} } },
    },
    components: { schemas: { NewDriver: create, DriverChange: update } },
  };
}

describe('drivers create and update: checked against the service\'s own document', () => {
  const longEmail = `${'a'.repeat(258)}@example.com`;
  const lenient = servedWith({ type: 'object', required: ['fleet_id'], properties: { fleet_id: { type: 'string' }, first_name: { type: 'string' }, last_name: { type: 'string' }, email: { type: 'string', maxLength: 300 } } });
  const named = servedWith({
    type: 'object',
    required: ['fleet_id', 'given_name', 'family_name'],
    properties: { fleet_id: { type: 'string', format: 'uuid' }, given_name: { type: 'string', minLength: 1 }, family_name: { type: 'string', minLength: 1 }, tags: { type: 'array', items: { type: 'string' } } },
    additionalProperties: false,
  });

  it('a 270-character email the service allows is sent', async () => {
    expect(longEmail).toHaveLength(270);
    const f = fakeDeps({ servedDocument: lenient });
    const { run, calls } = recordRun<DriversCreateOptions>();
    await parseVerb(newDriversCreateCommand(f.deps, run), ['--fleet-id', 'F-1', '--first-name', 'Ada', '--last-name', 'L', '--email', longEmail]);
    expect(calls[0]!.body).toEqual({ fleet_id: 'F-1', first_name: 'Ada', last_name: 'L', email: longEmail });
  });

  it('a required member the flags do not know is named in the error', async () => {
    const f = fakeDeps({ servedDocument: named, organizationId: ORG });
    const { run, calls } = recordRun<DriversCreateOptions>();
    const error = await parseVerb(newDriversCreateCommand(f.deps, run), ['--fleet-id', FLEET, '--field', 'family_name=Lovelace']).catch((e: unknown) => e);
    expect((error as Error).message).toBe('missing required field: --field given_name=...');
    expect((error as { exitCode?: number }).exitCode).toBe(2);
    expect(calls).toEqual([]);
  });

  it('--field and --from-file carry the service\'s members; the profile\'s organization is not added where the document has none', async () => {
    const f = fakeDeps({ servedDocument: named, organizationId: ORG, stdin: JSON.stringify({ family_name: 'Lovelace', tags: ['night'] }) });
    const { run, calls } = recordRun<DriversCreateOptions>();
    await parseVerb(newDriversCreateCommand(f.deps, run), ['--fleet-id', FLEET, '--from-file', '-', '--field', 'given_name=Ada']);
    expect(calls[0]!.body).toEqual({ fleet_id: FLEET, family_name: 'Lovelace', tags: ['night'], given_name: 'Ada' });
  });

  it('flags the service\'s document does not name are refused with its message and the members it names', async () => {
    const f = fakeDeps({ servedDocument: named });
    const error = await parseVerb(newDriversCreateCommand(f.deps, recordRun<DriversCreateOptions>().run), [
      '--fleet-id', FLEET, '--field', 'given_name=Ada', '--field', 'family_name=L', '--first-name', 'Ada',
    ]).catch((e: unknown) => e);
    expect((error as Error).message).toBe('--first-name: is not a known member');
    expect((error as { hint?: string }).hint).toBe("the service's document names: fleet_id, given_name, family_name, tags");
  });

  it('asks on a terminal for a required member of the service, by its name', async () => {
    const f = fakeDeps({ tty: true, servedDocument: named, inputs: ['Ada'] });
    const { run, calls } = recordRun<DriversCreateOptions>();
    await parseVerb(newDriversCreateCommand(f.deps, run), ['--fleet-id', FLEET, '--field', 'family_name=L']);
    expect(f.prompts).toEqual(['given_name']);
    expect(calls[0]!.body).toEqual({ fleet_id: FLEET, family_name: 'L', given_name: 'Ada' });
  });

  it('update sends a member of the service\'s document, and the request goes out as given', async () => {
    const f = fakeDeps({ servedDocument: named, format: 'json', answers: [{ method: 'PUT', path: `/v1/drivers/${DRIVER}`, body: { id: DRIVER, given_name: 'Augusta' } }] });
    await parseVerb(newDriversUpdateCommand(f.deps), [DRIVER, '--field', 'given_name=Augusta']);
    expect(f.sent[0]!.json).toEqual({ given_name: 'Augusta' });
    await expect(parseVerb(newDriversUpdateCommand(fakeDeps({ servedDocument: named }).deps), [DRIVER, '--first-name', 'A'])).rejects.toThrow('--first-name: is not a known member');
  });
});
