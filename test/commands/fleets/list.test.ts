// fleets list / get: a parse table (argv → options or the exact error) and a run table (TTY and piped, every format).
import { describe, expect, it } from 'vitest';
import { newFleetsListCommand, type FleetsListOptions } from '../../../src/commands/fleets/list.js';
import { newFleetsGetCommand } from '../../../src/commands/fleets/get.js';
import type { Deps } from '../../../src/factory.js';
import { ANSI, ciEnv, runCli, tempConfigDir } from '../../support/cli.js';
import { newMockAgent, page, queryOf, stubApi, stubToken } from '../../support/mock-http.js';
import { FakeClock } from '../../support/fake-clock.js';

const ORG = '0d1b2c3d-0000-4000-8000-00000000000a';
const FLEET_ID = '5e6f7a8b-0000-4000-8000-000000000001';
const fleets = [
  { id: FLEET_ID, name: 'North', organization_id: ORG, vehicle_count: 12, created_at: '2025-01-02T03:04:05Z', region: { code: 'N' } },
  { id: '5e6f7a8b-0000-4000-8000-000000000002', name: 'South', organization_id: ORG, vehicle_count: 0, created_at: '2025-02-03T04:05:06Z' },
];

describe('fleets list: parsing', () => {
  async function parse(args: string[]): Promise<FleetsListOptions> {
    let got: FleetsListOptions | undefined;
    const command = newFleetsListCommand({} as Pick<Deps, 'api' | 'output' | 'io' | 'configDir'>, async (_deps, opts) => {
      got = opts;
    });
    command.exitOverride();
    await command.parseAsync(args, { from: 'user' });
    return got!;
  }

  it.each([
    [[], { organizationId: undefined, paging: { limit: 50, cursor: undefined, all: false, maxItems: undefined } }],
    [['--organization-id', ORG.toUpperCase(), '--limit', '5', '--cursor', 'c1'], { organizationId: ORG, paging: { limit: 5, cursor: 'c1', all: false, maxItems: undefined } }],
    [['--all', '--max-items', '7'], { organizationId: undefined, paging: { limit: 50, cursor: undefined, all: true, maxItems: 7 } }],
  ])('%j', async (args, expected) => {
    expect(await parse(args)).toEqual(expected);
  });

  it.each([
    [['--organization-id', 'nope'], '--organization-id must be a UUID (like 3f2b8c1e-0000-4000-8000-000000000000), got "nope"'],
    [['--limit', '0'], '--limit must be from 1 to 500, got 0'],
    [['--max-items', 'x'], '--max-items must be a whole number of at least 1, got "x"'],
    [['--cursor', ''], '--cursor must not be empty'],
  ])('%j is refused: %s', async (args, message) => {
    await expect(parse(args)).rejects.toThrow(message);
  });
});

describe('fleets list: running', () => {
  async function list(flags: string[], tty: boolean, env: NodeJS.ProcessEnv = {}) {
    const agent = newMockAgent();
    stubToken(agent, { scope: 'fleets_read' });
    const seen = stubApi(agent, { path: '/v1/fleets', body: page(fleets) });
    const result = await runCli(['fleets', 'list', ...flags], { env: ciEnv(tempConfigDir(), env), agent, clock: new FakeClock(), tty });
    return { ...result, seen };
  }

  it('asks for GET /v1/fleets with the organization filter', async () => {
    const { seen, code } = await list(['--organization-id', ORG], false);
    expect(code).toBe(0);
    expect(Object.fromEntries(queryOf(seen[0]))).toEqual({ organization_id: ORG, limit: '50' });
  });

  it('piped: TSV with the default columns', async () => {
    const { stdout, stderr } = await list([], false);
    expect(stdout).toBe(
      `id\tname\torganization_id\tvehicle_count\tcreated_at\n${FLEET_ID}\tNorth\t${ORG}\t12\t2025-01-02T03:04:05Z\n` +
        `5e6f7a8b-0000-4000-8000-000000000002\tSouth\t${ORG}\t0\t2025-02-03T04:05:06Z\n`,
    );
    expect(stderr).toBe('');
  });

  it('TTY: a box-drawn table with colour', async () => {
    const { stdout } = await list([], true);
    expect(stdout).toMatch(/┌/);
    expect(stdout).toMatch(ANSI);
    expect(stdout).toContain('VEHICLE COUNT');
  });

  it.each([
    ['--no-color', ['--no-color'], {}],
    ['NO_COLOR', [], { NO_COLOR: '1' }],
    ['TERM=dumb', [], { TERM: 'dumb' }],
  ])('TTY with %s: no ANSI', async (_name, flags, env) => {
    const { stdout } = await list(flags, true, env);
    expect(stdout).toMatch(/┌/);
    expect(stdout).not.toMatch(ANSI);
  });

  it.each([true, false])('json (tty %s): the array of items as the API sent them', async (tty) => {
    const { stdout } = await list(['-o', 'json'], tty);
    expect(JSON.parse(stdout)).toEqual(fleets);
  });

  it.each([true, false])('ndjson (tty %s)', async (tty) => {
    const { stdout } = await list(['-o', 'ndjson'], tty);
    expect(stdout.trimEnd().split('\n').map((l) => JSON.parse(l))).toEqual(fleets);
  });

  it.each([true, false])('csv (tty %s) with --columns, a field a record lacks stays empty', async (tty) => {
    const { stdout } = await list(['-o', 'csv', '--columns', 'name,vehicle_count,created_at'], tty);
    expect(stdout).toBe('name,vehicle_count,created_at\nNorth,12,2025-01-02T03:04:05Z\nSouth,0,2025-02-03T04:05:06Z\n');
  });

  // The service's own document: its fleet records may carry a depot (these records happen not to)
  const servedDocument = {
    openapi: '3.1.1',
    paths: {
      '/v1/fleets': {
        get: {
          security: [{ oauth: ['thirdparty.api.fleets_read'] }],
          responses: { 200: { content: { 'application/json': { schema: { type: 'object', properties: { data: { type: 'array', items: { $ref: '#/components/schemas/Fleet' } } } } } } } },
        },
      },
    },
    components: { schemas: { Fleet: { type: 'object', properties: { id: { type: 'string' }, name: { type: 'string' }, depot: { type: 'string' } } } } },
  };

  it('--columns: a field a record carries or the served document describes is shown; one neither has is exit 2, with the closest names', async () => {
    const agent = newMockAgent();
    stubToken(agent, { scope: 'fleets_read' });
    stubApi(agent, { path: '/v1/fleets', body: page(fleets) });
    stubApi(agent, { path: '/openapi/v1.json', body: servedDocument });
    const { code, stdout, stderr } = await runCli(['fleets', 'list', '--columns', 'name,region.code,depot,vehicle_cnt'], { env: ciEnv(tempConfigDir()), agent, clock: new FakeClock(), tty: false });
    expect(code).toBe(2);
    // refused on the first page, before its first byte: a script gets data or nothing
    expect(stdout).toBe('');
    expect(stderr).toBe(
      'Error: --columns: no record has the field "vehicle_cnt" (did you mean vehicle_count?), and the API document does not describe it\n' +
        'Hint: fields these records carry: id, name, organization_id, vehicle_count, created_at, region.code\n',
    );
    const shown = newMockAgent();
    stubToken(shown, { scope: 'fleets_read' });
    stubApi(shown, { path: '/v1/fleets', body: page(fleets) });
    stubApi(shown, { path: '/openapi/v1.json', body: servedDocument });
    const ok = await runCli(['fleets', 'list', '--columns', 'name,region.code,depot'], { env: ciEnv(tempConfigDir()), agent: shown, clock: new FakeClock(), tty: false });
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout).toBe('name\tregion.code\tdepot\nNorth\tN\t\nSouth\t\t\n');
  });

  it('--columns on a terminal: refused before the table is drawn', async () => {
    const agent = newMockAgent();
    stubToken(agent, { scope: 'fleets_read' });
    stubApi(agent, { path: '/v1/fleets', body: page(fleets) });
    stubApi(agent, { path: '/openapi/v1.json', body: servedDocument });
    const { code, stdout } = await runCli(['fleets', 'list', '--columns', 'name,vehicle_cnt'], { env: ciEnv(tempConfigDir()), agent, clock: new FakeClock(), tty: true });
    expect(code).toBe(2);
    expect(stdout).toBe('');
  });

  it('an unknown -o is a usage error', async () => {
    const result = await runCli(['fleets', 'list', '-o', 'xml'], { env: ciEnv(tempConfigDir()), agent: newMockAgent() });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("Error: option '-o, --output <format>' argument 'xml' is invalid");
  });
});

describe('fleets get', () => {
  it('refuses a bad id before any request', async () => {
    await expect(
      newFleetsGetCommand({} as Pick<Deps, 'api' | 'output' | 'io' | 'prompter'>, async () => undefined).exitOverride().parseAsync(['42'], { from: 'user' }),
    ).rejects.toThrow('fleet id must be a UUID');
  });

  it.each([
    [false, ['-o', 'json'], (out: string) => expect(JSON.parse(out)).toEqual(fleets[0])],
    [false, [], (out: string) => expect(out).toMatch(new RegExp(`^id\t${FLEET_ID}\nname\tNorth\n[\\s\\S]*region.code\tN\n$`))],
    [true, [], (out: string) => expect(out).toMatch(/┌[\s\S]*North/)],
  ])('tty %s %j', async (tty, flags, check) => {
    const agent = newMockAgent();
    stubToken(agent, { scope: 'fleets_read' });
    stubApi(agent, { path: `/v1/fleets/${FLEET_ID}`, body: fleets[0] });
    const result = await runCli(['fleets', 'get', FLEET_ID, ...flags], { env: ciEnv(tempConfigDir()), agent, clock: new FakeClock(), tty });
    expect(result.code).toBe(0);
    check(result.stdout);
  });
});
