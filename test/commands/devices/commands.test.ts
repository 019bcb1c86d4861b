import { describe, expect, it } from 'vitest';
import { newDevicesRebootCommand } from '../../../src/commands/devices/reboot.js';
import { newDevicesWakeUpCommand } from '../../../src/commands/devices/wake-up.js';
import type { DeviceCommandInvocation } from '../../../src/commands/devices/command-verb.js';
import { deviceCommandRun, REBOOT, WAKE_UP, type DeviceCommandVerb } from '../../../src/commands/devices/device-command.js';
import { sendDeviceCommand } from '../../../src/api/device-commands.js';
import { ApiError, AuthError } from '../../../src/errors.js';
import type { ApiClient } from '../../../src/api/client.js';
import { fakeDeps, parseVerb } from '../fake-deps.js';
import { tempDir } from '../../support/temp-dir.js';

const problem = (status: number, code: string, detail: string, extra = {}) => ({ type: 'about:blank', title: code, status, detail, code, ...extra });
const accepted = (key: string, command = 'reboot') => ({ id: 'c1', hardware_id: 'HW-1', command, status: 'accepted', idempotency_key: key, accepted_at: '2024-06-01T12:00:00Z' });

function recordVerb() {
  const calls: { verb: DeviceCommandVerb; opts: DeviceCommandInvocation }[] = [];
  return { calls, run: async (_d: unknown, verb: DeviceCommandVerb, opts: DeviceCommandInvocation) => void calls.push({ verb, opts }) };
}

describe('devices reboot / wake-up: parse', () => {
  const cases: { argv: string[]; want?: DeviceCommandInvocation; error?: string }[] = [
    { argv: ['HW-1'], want: { mode: 'single', hardwareId: 'HW-1', idempotencyKey: undefined, yes: false } },
    { argv: ['HW-1', '--idempotency-key', 'ci-42', '-y'], want: { mode: 'single', hardwareId: 'HW-1', idempotencyKey: 'ci-42', yes: true } },
    { argv: ['HW-1', '--idempotency-key', 'k'.repeat(200)], want: { mode: 'single', hardwareId: 'HW-1', idempotencyKey: 'k'.repeat(200), yes: false } },
    { argv: ['HW-1', '--idempotency-key', 'k'.repeat(201)], error: '--idempotency-key must be at most 200 characters, got 201' },
    { argv: ['HW-1', '--idempotency-key', ''], error: '--idempotency-key must not be empty' },
  ];
  for (const [name, make] of [
    ['reboot', newDevicesRebootCommand],
    ['wake-up', newDevicesWakeUpCommand],
  ] as const) {
    for (const c of cases) {
      it(`${name} ${c.argv.join(' ').slice(0, 60)}`, async () => {
        const { run, calls } = recordVerb();
        const promise = parseVerb(make(fakeDeps().deps, run), c.argv);
        if (c.error) return expect(promise).rejects.toThrow(c.error);
        await promise;
        expect(calls.map((call) => call.opts)).toEqual([c.want]);
        expect(calls[0]!.verb.command).toBe(name === 'reboot' ? 'reboot' : 'wake_up');
      });
    }
  }
});

describe('devices reboot / wake-up: run', () => {
  it('piped without --yes: refuses with exit 2 and sends nothing', async () => {
    const f = fakeDeps({ tty: false });
    await expect(deviceCommandRun(f.deps, REBOOT, { hardwareId: 'HW-1', yes: false })).rejects.toMatchObject({
      exitCode: 2,
      message: 'Reboot of HW-1 not sent: confirmation required',
    });
    expect(f.sent).toEqual([]);
  });

  it('on a TTY asks first; "no" sends nothing', async () => {
    const f = fakeDeps({ tty: true, inputs: ['n'] });
    await expect(deviceCommandRun(f.deps, WAKE_UP, { hardwareId: 'HW-1', yes: false })).rejects.toThrow('Wake up of HW-1 not sent: not confirmed');
    expect(f.prompts).toEqual(['Wake up device HW-1?']);
    expect(f.sent).toEqual([]);
  });

  it('sends the given key, prints the answer; stderr says accepted', async () => {
    const f = fakeDeps({ tty: true, inputs: ['y'], format: 'json', answers: [{ method: 'POST', path: '/v1/devices/HW-1/commands/reboot', status: 202, body: accepted('ci-42') }] });
    await deviceCommandRun(f.deps, REBOOT, { hardwareId: 'HW-1', idempotencyKey: 'ci-42', yes: false });
    expect(f.sent[0]!.headers['Idempotency-Key']).toBe('ci-42');
    expect(f.sent[0]!.scope).toBe('thirdparty.api.device_commands_reboot');
    expect(JSON.parse(f.io.stdout())).toEqual(accepted('ci-42'));
    expect(f.io.stderr()).toBe('Reboot of HW-1 accepted.\n');
  });

  it('without a key: a generated one is sent and printed so the call can be replayed', async () => {
    const f = fakeDeps({ answers: [{ method: 'POST', path: '/v1/devices/HW-1/commands/wake-up', status: 202, body: accepted('x', 'wake_up') }] });
    await deviceCommandRun(f.deps, WAKE_UP, { hardwareId: 'HW-1', yes: true });
    const key = f.sent[0]!.headers['Idempotency-Key']!;
    expect(key).toMatch(/^fleetctl-[0-9a-f-]{36}$/);
    expect(f.sent[0]!.scope).toBe('thirdparty.api.device_commands_wake_up');
    expect(f.io.stderr()).toBe(`Wake up of HW-1 accepted.\nIdempotency-Key: ${key} (to replay this call safely, pass --idempotency-key ${key})\n`);
  });

  it('without a key, a failure that may have reached the device still prints the generated key to retry with', async () => {
    const f = fakeDeps({ answers: [{ method: 'POST', path: '/v1/devices/HW-1/commands/reboot', status: 503, body: problem(503, 'service.unavailable', 'Try again.') }] });
    await expect(deviceCommandRun(f.deps, REBOOT, { hardwareId: 'HW-1', yes: true })).rejects.toMatchObject({ exitCode: 9 });
    const key = f.sent[0]!.headers['Idempotency-Key']!;
    expect(f.io.stderr()).toBe(`Idempotency-Key: ${key} (the reboot may have been sent: retry with --idempotency-key ${key} so it is not sent twice)\n`);
  });

  it('--dry-run of one device shows the key that would be sent (the given one, as is) and sends nothing', async () => {
    const found = { method: 'GET', path: '/v1/devices?hardware_id=HW-1&limit=1', body: { data: [{ hardware_id: 'HW-1' }], next_cursor: null, has_more: false } };
    const f = fakeDeps({ format: 'csv', answers: [found] });
    await deviceCommandRun(f.deps, REBOOT, { hardwareId: 'HW-1', idempotencyKey: 'ci-42', yes: false, dryRun: true });
    expect(f.io.stdout()).toBe('hardware_id,command,idempotency_key\nHW-1,reboot,ci-42\n');
    expect(f.io.stderr()).toBe('Dry run: would send reboot to 1 device; nothing was sent.\n');
    // the device looked up (as the real run would find it), nothing sent
    expect(f.sent.map((s) => s.method)).toEqual(['GET']);
  });

  it('--dry-run of one device the service does not know (a typo): exit 5 naming it, nothing sent', async () => {
    const unknown = { method: 'GET', path: '/v1/devices?hardware_id=HW-0000001&limit=1', body: { data: [], next_cursor: 'c2', has_more: true } };
    // an empty page with more to come is not the end: the look-up reads on
    const rest = { method: 'GET', path: '/v1/devices?hardware_id=HW-0000001&cursor=c2&limit=1', body: { data: [], next_cursor: null, has_more: false } };
    const f = fakeDeps({ answers: [unknown, rest] });
    const error = await deviceCommandRun(f.deps, REBOOT, { hardwareId: 'HW-0000001', yes: false, dryRun: true }).catch((e: unknown) => e);
    expect(error).toMatchObject({ exitCode: 5, message: '1 of the 1 device named is unknown to the service: HW-0000001; the reboot would fail for it (not found)' });
    expect(f.io.stdout()).toBe('');
  });

  it('a profile without the command\'s scope is refused before the prompt', async () => {
    const f = fakeDeps({ tty: true });
    const real = await f.deps.api();
    const refused = new AuthError('token request failed: invalid_scope', 'not granted');
    const api = Object.assign(Object.create(real) as ApiClient, { accessToken: async () => Promise.reject(refused) });
    await expect(deviceCommandRun({ ...f.deps, api: async () => api }, REBOOT, { hardwareId: 'HW-1', yes: false })).rejects.toBe(refused);
    expect(f.prompts).toEqual([]);
  });

  it('a replayed answer says it was not sent again', async () => {
    const f = fakeDeps({
      answers: [{ method: 'POST', path: '/v1/devices/HW-1/commands/reboot', status: 202, body: accepted('k'), headers: { 'idempotent-replayed': 'true' } }],
    });
    await deviceCommandRun(f.deps, REBOOT, { hardwareId: 'HW-1', idempotencyKey: 'k', yes: true });
    expect(f.io.stderr()).toBe('Reboot of HW-1 replayed (already sent earlier with this key; not sent again).\n');
  });

  it('422 device.capability_missing names the capability; exit 7', async () => {
    const f = fakeDeps({
      answers: [
        {
          method: 'POST',
          path: '/v1/devices/HW-1/commands/wake-up',
          status: 422,
          body: problem(422, 'device.capability_missing', 'Device HW-1 cannot perform wake_up.', { capability: 'wake_up' }),
        },
      ],
    });
    const error = await deviceCommandRun(f.deps, WAKE_UP, { hardwareId: 'HW-1', idempotencyKey: 'k', yes: true }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ detail: 'device HW-1 lacks the wake_up capability', code: 'device.capability_missing', exitCode: 7 });
    expect(f.io.stdout()).toBe('');
  });

  it('404 and 400 keep their exit codes', async () => {
    const f = fakeDeps({
      answers: [
        { method: 'POST', path: '/v1/devices/HW-9/commands/reboot', status: 404, body: problem(404, 'resource.not_found', 'Device HW-9 was not found.') },
        { method: 'POST', path: '/v1/devices/HW-9/commands/reboot', status: 403, body: problem(403, 'auth.scope_missing', 'no scope') },
      ],
    });
    await expect(deviceCommandRun(f.deps, REBOOT, { hardwareId: 'HW-9', idempotencyKey: 'k', yes: true })).rejects.toMatchObject({ exitCode: 5 });
    await expect(deviceCommandRun(f.deps, REBOOT, { hardwareId: 'HW-9', idempotencyKey: 'k', yes: true })).rejects.toMatchObject({ exitCode: 4 });
  });
});

describe('sendDeviceCommand: one result per device', () => {
  it.each([
    [202, undefined, {}, { status: 'accepted', http_status: 202, code: null }],
    [202, undefined, { 'idempotent-replayed': 'true' }, { status: 'replayed', http_status: 202, code: null }],
    [422, problem(422, 'device.capability_missing', 'x', { capability: 'reboot' }), {}, { status: 'capability_missing', http_status: 422, code: 'device.capability_missing' }],
    [404, problem(404, 'resource.not_found', 'x'), {}, { status: 'not_found', http_status: 404, code: 'resource.not_found' }],
    [422, problem(422, 'idempotency.conflict', 'x'), {}, { status: 'failed', http_status: 422, code: 'idempotency.conflict' }],
    [503, problem(503, 'service.unavailable', 'x'), {}, { status: 'failed', http_status: 503, code: 'service.unavailable' }],
  ])('HTTP %d → result', async (status, body, headers, want) => {
    const f = fakeDeps({ answers: [{ method: 'POST', path: '/v1/devices/HW-1/commands/reboot', status, body: body ?? accepted('k'), headers }] });
    const outcome = await sendDeviceCommand(await f.deps.api(), { hardwareId: 'HW-1', command: 'reboot', idempotencyKey: 'k' });
    expect(outcome.result).toEqual({ hardware_id: 'HW-1', command: 'reboot', idempotency_key: 'k', ...want });
  });
});

describe("a fake's assertion is never taken for a device's failure", () => {
  // The scripted transport checks each request with expect(); a production catch-all turning that into a
  // per-device "failed" result would let a wrong request pass the test.
  const wrongDevice = { method: 'POST', path: '/v1/devices/HW-2/commands/reboot', status: 202, body: accepted('k') };

  it('sendDeviceCommand lets the assertion through', async () => {
    const f = fakeDeps({ answers: [wrongDevice] });
    const outcome = sendDeviceCommand(await f.deps.api(), { hardwareId: 'HW-1', command: 'reboot', idempotencyKey: 'k' });
    await expect(outcome).rejects.toMatchObject({ name: 'AssertionError', expected: 'POST /v1/devices/HW-2/commands/reboot' });
    expect(f.takeRefusals()).toHaveLength(1);
  });

  it('a bulk run stops on it and rejects with it, nothing reported as a device failure', async () => {
    const dir = tempDir('fake-assert-');
    const f = fakeDeps({ configDir: dir, format: 'ndjson', answers: [wrongDevice] });
    const run = parseVerb(newDevicesRebootCommand(f.deps), ['HW-1', 'HW-3', '--yes', '--concurrency', '1']);
    await expect(run).rejects.toMatchObject({ name: 'AssertionError' });
    expect(f.io.stdout()).toBe('');
    expect(f.takeRefusals()).toMatchObject([{ name: 'AssertionError' }]);
  });

  it('a programming error is not a device failure either', async () => {
    const api = { call: async () => Promise.reject(new TypeError("Cannot read properties of undefined (reading 'status')")) };
    await expect(sendDeviceCommand(api, { hardwareId: 'HW-1', command: 'reboot', idempotencyKey: 'k' })).rejects.toBeInstanceOf(TypeError);
  });
});
