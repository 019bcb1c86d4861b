// sandbox emit: a parse table and a run table (scripted transport: POST /_sandbox/emit, no token).
import { describe, expect, it } from 'vitest';
import { newSandboxEmitCommand, sandboxEmitRun, type SandboxEmitOptions } from '../../../src/commands/sandbox/emit.js';
import { fakeDeps, parseVerb, recordRun } from '../fake-deps.js';

const ORG = '0d1b2c3d-0000-4000-8000-00000000000a';
const events = [
  { id: 'HW-000001~2024-06-01T12:00:00.000Z', type: 'live.gps', hardware_id: 'HW-000001', organization_id: ORG, destinations: 1 },
  { id: 'HW-000002~2024-06-01T12:00:00.000Z', type: 'live.gps', hardware_id: 'HW-000002', organization_id: ORG, destinations: 1 },
];

describe('sandbox emit: parsing', () => {
  async function parse(args: string[]): Promise<SandboxEmitOptions> {
    const { run, calls } = recordRun<SandboxEmitOptions>();
    await parseVerb(newSandboxEmitCommand(fakeDeps().deps, run), args);
    return calls[0]!;
  }
  it.each([
    [['live.gps'], { type: 'live.gps', count: 1, organizationId: undefined }],
    [['media.ready', '--count', '20', '--organization-id', ORG.toUpperCase()], { type: 'media.ready', count: 20, organizationId: ORG }],
  ])('%j', async (args, expected) => expect(await parse(args)).toEqual(expected));
  it.each([
    [['gps'], "command-argument value 'gps' is invalid for argument 'type'"],
    [['live.gps', '--count', '0'], '--count must be a whole number from 1 to 1000, got "0"'],
    [['live.gps', '--count', '1001'], '--count must be a whole number from 1 to 1000, got "1001"'],
    [['live.gps', '--organization-id', 'x'], '--organization-id must be a UUID'],
  ])('%j is refused: %s', async (args, message) => expect(parse(args)).rejects.toThrow(message));
});

describe('sandbox emit: running', () => {
  it.each([false, true])('posts type, count and the configured organization, lists the events (tty %s)', async (tty) => {
    const f = fakeDeps({ tty, organizationId: ORG, answers: [{ method: 'POST', path: '/_sandbox/emit', status: 202, body: { events } }] });
    await sandboxEmitRun(f.deps, { type: 'live.gps', count: 2 });
    f.assertAllAnswered();
    expect(f.sent[0]!.json).toEqual({ type: 'live.gps', count: 2, organization_id: ORG });
    expect(f.sent[0]!.headers.authorization).toBeUndefined();
    if (!tty) {
      expect(f.io.stdout()).toBe(`id\ttype\thardware_id\torganization_id\tdestinations\n${events.map((e) => `${e.id}\tlive.gps\t${e.hardware_id}\t${ORG}\t1`).join('\n')}\n`);
    } else {
      expect(f.io.stdout()).toContain('HW-000002');
    }
    expect(f.io.stderr()).toBe('');
  });

  it('says so when nothing will be delivered, or fewer events could be made', async () => {
    const f = fakeDeps({ format: 'ndjson', answers: [{ method: 'POST', path: '/_sandbox/emit', status: 202, body: { events: [{ ...events[0], destinations: 0 }] } }] });
    await sandboxEmitRun(f.deps, { type: 'live.gps', count: 3 });
    expect(f.sent[0]!.json).toEqual({ type: 'live.gps', count: 3 });
    expect(JSON.parse(f.io.stdout())).toMatchObject({ destinations: 0 });
    expect(f.io.stderr()).toBe('Only 1 of 3 live.gps events could be made from the seeded fleet.\nNo enabled webhook subscription covers these events: nothing will be delivered (see `fleetctl webhook-config get`).\n');
  });

  it('says how many deliveries a full queue refused, instead of claiming no subscription covers them', async () => {
    const f = fakeDeps({ format: 'ndjson', answers: [{ method: 'POST', path: '/_sandbox/emit', status: 202, body: { events: events.map((e) => ({ ...e, destinations: 0, refused: 1 })) } }] });
    await sandboxEmitRun(f.deps, { type: 'live.gps', count: 2 });
    expect(f.io.stderr()).toBe("2 deliveries were refused: a destination's queue is full (it is down or slow); see https://api.fleet.test/_sandbox/deliveries (outcome dropped_overflow).\n");
  });

  it('with --sandbox, says that the embedded sandbox stops before it can deliver', async () => {
    const f = fakeDeps({ format: 'ndjson', answers: [{ method: 'POST', path: '/_sandbox/emit', status: 202, body: { events } }] });
    await sandboxEmitRun({ ...f.deps, globals: () => ({ sandbox: true }) }, { type: 'live.gps', count: 2 });
    expect(f.io.stderr()).toBe('The embedded sandbox (--sandbox) stops when this command ends, so these events are not delivered: run `fleetctl sandbox` in another shell and emit on it to receive them.\n');
  });

  it('a 400 problem is an ApiError (exit 2); a 404 means the base URL is no sandbox', async () => {
    const bad = fakeDeps({ answers: [{ method: 'POST', path: '/_sandbox/emit', status: 400, body: { status: 400, code: 'request.invalid_body', detail: 'Invalid request body: count must be a whole number from 1 to 1000.' } }] });
    await expect(sandboxEmitRun(bad.deps, { type: 'live.gps', count: 1 })).rejects.toMatchObject({ code: 'request.invalid_body', exitCode: 2 });
    const none = fakeDeps({ answers: [{ method: 'POST', path: '/_sandbox/emit', status: 404, body: { status: 404 } }] });
    await expect(sandboxEmitRun(none.deps, { type: 'live.gps', count: 1 })).rejects.toThrow('https://api.fleet.test is not a fleetctl sandbox (no /_sandbox/emit there)');
  });
});
