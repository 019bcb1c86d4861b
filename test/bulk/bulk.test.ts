import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { stripVTControlCharacters } from 'node:util';
import path from 'node:path';
import { newDevicesRebootCommand } from '../../src/commands/devices/reboot.js';
import type { DeviceCommandInvocation } from '../../src/commands/devices/command-verb.js';
import { REBOOT, type DeviceCommandVerb } from '../../src/commands/devices/device-command.js';
import type { BulkCommandOptions } from '../../src/bulk/run.js';
import { bulkCommandRun } from '../../src/commands/devices/command-run.js';
import { deviceKey, newRunId } from '../../src/bulk/keys.js';
import { parseIdList, resolveTargets } from '../../src/bulk/targets.js';
import { bulkFailure } from '../../src/bulk/summary.js';
import { Journal } from '../../src/bulk/journal.js';
import type { DeviceCommandResult } from '../../src/api/device-commands.js';
import type { ApiClient } from '../../src/api/client.js';
import { AuthError } from '../../src/errors.js';
import { TokenEndpointUnavailable } from '../../src/auth/tokens.js';
import { fakeDeps, parseVerb, type ScriptedAnswer } from '../commands/fake-deps.js';
import { tempDir as newTempDir } from '../support/temp-dir.js';

const FLEET = '22222222-2222-4222-8222-222222222222';
const problem = (status: number, code: string, extra = {}) => ({ type: 'about:blank', title: code, status, detail: code, code, ...extra });
const accepted = (hw: string, key: string) => ({ id: 'c', hardware_id: hw, command: 'reboot', status: 'accepted', idempotency_key: key, accepted_at: 'x' });
const reboot = (hw: string, status = 202, body?: unknown, headers?: Record<string, string>): ScriptedAnswer => ({
  method: 'POST',
  path: `/v1/devices/${hw}/commands/reboot`,
  status,
  body: body ?? accepted(hw, 'k'),
  headers,
});

const tempDir = () => newTempDir('bulk-');
/** A dry run's look-up of a device named by hardware id: found, or (none) unknown to the service. */
const lookup = (hw: string, found = true): ScriptedAnswer => ({ method: 'GET', path: `/v1/devices?hardware_id=${hw}&limit=1`, body: { data: found ? [{ hardware_id: hw }] : [], next_cursor: null, has_more: false } });

const base = (o: Partial<BulkCommandOptions> = {}): BulkCommandOptions => ({
  source: { ids: [] },
  yes: true,
  dryRun: false,
  maxDevices: 100,
  concurrency: 1,
  ...o,
});

describe('keys', () => {
  it('BASE:HW, at most 200 characters, hashed when longer, distinct per device', () => {
    expect(deviceKey('ci-42', 'HW-1')).toBe('ci-42:HW-1');
    const long = 'b'.repeat(199);
    const a = deviceKey(long, 'HW-1');
    const b = deviceKey(long, 'HW-2');
    expect(a).toHaveLength(200);
    expect(b).toHaveLength(200);
    expect(a).not.toBe(b);
    expect(deviceKey(long, 'HW-1')).toBe(a);
  });
  it('a key that is not printable ASCII (a free-form hardware id) is hashed, so it can travel as a header', () => {
    const key = deviceKey('ci-42', 'HW-日本');
    expect(key).toMatch(/^ci-42:HW-__~[0-9a-f]{64}$/);
    expect(key).not.toBe(deviceKey('ci-42', 'HW-日日'));
  });
  it('run ids sort by time', () => expect(newRunId(new Date('2024-06-01T12:00:00.123Z'))).toMatch(/^20240601T120000Z-[0-9a-f]{6}$/));
});

describe('id lists', () => {
  it('ignores blank lines and # comments', () => {
    expect(parseIdList('HW-1\n\n# all of depot 3\n  HW-2  # the red van\r\nHW#3\n')).toEqual(['HW-1', 'HW-2', 'HW#3']);
  });
  it('keeps free-form ids, and names the line of one that can never form a request', () => {
    expect(parseIdList('HW/1\n../x\n%2F\nHW-日本\n', 'ids.txt')).toEqual(['HW/1', '../x', '%2F', 'HW-日本']);
    expect(() => parseIdList('HW-1\n\0\n', 'ids.txt')).toThrow('hardware id "\\x00" (line 2 of ids.txt) contains control characters');
    expect(() => parseIdList('HW-1\nHW-\u001b[31m\n', 'ids.txt')).toThrow('(line 2 of ids.txt) contains control characters');
    expect(() => parseIdList(`HW-1\n\nx${'y'.repeat(5_000_000)}\n`, 'ids.txt')).toThrow(/^hardware id "xy{38}… \(5000001 characters\)" \(line 3 of ids.txt\) is 5000001 characters long; hardware ids have at most 1024$/);
  });
  it('takes the records a list prints (NDJSON lines, a JSON array), their hardware id read as any record\'s', () => {
    expect(parseIdList('{"hardware_id":"HW-1","age":"3m"}\nHW-2\n{"hw":"TLM-3","label":"x"}\n', 'stdin')).toEqual(['HW-1', 'HW-2', 'TLM-3']);
    expect(parseIdList('[{"hardwareId":"HW-1"},"HW-2"]\n', 'stdin')).toEqual(['HW-1', 'HW-2']);
    // a line that only looks like JSON is a free-form id
    expect(parseIdList('{HW-1}\n')).toEqual(['{HW-1}']);
    expect(() => parseIdList('{"name":"van"}\n', 'stdin')).toThrow('line 1 of stdin is a record with no hardware id');
  });
  it('a list of 300,000 ids does not overflow the call stack', async () => {
    const stdin = new PassThrough();
    stdin.end(Array.from({ length: 300_000 }, (_, i) => `HW-${i}`).join('\n'));
    const api = () => Promise.reject(new Error('no request for a list of ids'));
    expect((await resolveTargets({ api, stdin }, { ids: ['HW-0'], fromFile: '-' })).ids).toHaveLength(300_000);
  }, 30_000);
  it('a selection read through the record boundary: the hardware id and capabilities whatever the service names them, and a device it cannot name stops the run', async () => {
    const devices = (...data: unknown[]) => () => Promise.resolve({ list: async function* () { yield* data; } } as unknown as ApiClient);
    const stdin = new PassThrough();
    const found = await resolveTargets({ api: devices({ id: 'd1', hardwareId: 'TLM-1', capabilities: ['reboot'] }, { id: 'd2', hw: 'TLM-2' }), stdin }, { ids: [], fleetId: FLEET });
    expect(found.ids).toEqual(['TLM-1', 'TLM-2']);
    expect([...found.capabilities]).toEqual([['TLM-1', ['reboot']]]);
    await expect(resolveTargets({ api: devices({ id: 'd3', serial: 'S-3' }), stdin }, { ids: [], fleetId: FLEET })).rejects.toThrow(`a device of --fleet-id ${FLEET} carries no hardware id in its record`);
  });
});

describe('bulk failure and exit code', () => {
  const r = (status: DeviceCommandResult['status'], http: number | null, code: string | null): DeviceCommandResult => ({
    hardware_id: 'HW',
    status,
    http_status: http,
    code,
    idempotency_key: 'k',
    command: 'reboot',
  });
  it('0 when all succeeded (replays count)', () => expect(bulkFailure([r('accepted', 202, null), r('replayed', 202, null)], 'reboot', 'h')).toBeUndefined());
  it('10 when some failed', () => expect(bulkFailure([r('accepted', 202, null), r('not_found', 404, 'resource.not_found')], 'reboot', 'h')?.exitCode).toBe(10));
  it('the failure’s own code when all failed alike', () => {
    expect(bulkFailure([r('capability_missing', 422, 'device.capability_missing'), r('capability_missing', 422, 'device.capability_missing')], 'reboot', 'h')).toMatchObject({
      exitCode: 7,
      detail: 'reboot failed for all 2 devices: capability missing (device.capability_missing, HTTP 422)',
    });
    expect(bulkFailure([r('failed', 403, 'auth.scope_missing')], 'reboot', 'h')?.exitCode).toBe(4);
    expect(bulkFailure([r('failed', null, 'network.error')], 'reboot', 'h')?.exitCode).toBe(9);
  });
  it('10 when all failed for different reasons', () => {
    expect(bulkFailure([r('failed', 503, 'service.unavailable'), r('not_found', 404, 'resource.not_found')], 'reboot', 'h')?.exitCode).toBe(10);
  });
});

describe('devices reboot, bulk: parse', () => {
  function record() {
    const calls: DeviceCommandInvocation[] = [];
    return { calls, run: async (_d: unknown, _v: DeviceCommandVerb, i: DeviceCommandInvocation) => void calls.push(i) };
  }
  const cases: { argv: string[]; want?: Partial<DeviceCommandInvocation>; error?: string }[] = [
    { argv: ['HW-1', 'HW-2'], want: { mode: 'bulk', source: { ids: ['HW-1', 'HW-2'], fromFile: undefined, fleetId: undefined, organizationId: undefined }, maxDevices: 100, concurrency: undefined } },
    { argv: ['--fleet-id', FLEET, '--dry-run'], want: { mode: 'bulk', dryRun: true } },
    { argv: ['HW-1', '--from-file', '-', '--concurrency', '16', '--max-devices', '5000', '--idempotency-key', 'ci'], want: { mode: 'bulk', concurrency: 16, maxDevices: 5000, keyBase: 'ci' } },
    { argv: ['--resume', '20240601T120000Z-3f9a1c', '--yes'], want: { mode: 'bulk', resume: '20240601T120000Z-3f9a1c', yes: true } },
    // one device alone stays single with --dry-run, so it shows the key it would really send
    { argv: ['HW-1', '--dry-run', '--idempotency-key', 'ci'], want: { mode: 'single', hardwareId: 'HW-1', idempotencyKey: 'ci', dryRun: true } },
    { argv: ['HW-1', '--journal', 'j.ndjson'], want: { mode: 'bulk', journal: 'j.ndjson' } },
    { argv: ['@night', 'HW-1', '--where', 'stale'], want: { mode: 'bulk', where: 'stale @night', source: { ids: ['HW-1'] } } },
    { argv: ['--resume', '20240601T120000Z-3f9a1c', '--where', 'stale'], error: 'give no --where or @NAME' },
    { argv: [], error: 'name the devices to reboot: hardware ids, --from-file, --fleet-id, --organization-id or --where (or --resume RUN_ID)' },
    { argv: ['--fleet-id', 'x'], error: '--fleet-id must be a UUID' },
    { argv: ['HW-1', 'HW-2', '--concurrency', '0'], error: '--concurrency must be a whole number from 1 to 64, got "0"' },
    { argv: ['HW-1', 'HW-2', '--max-devices', 'many'], error: '--max-devices must be a whole number of at least 1, got "many"' },
    { argv: ['--resume', '../etc/passwd'], error: '--resume must be a run id' },
    { argv: ['HW-1', 'HW-2', '--idempotency-key', 'k'.repeat(201)], error: '--idempotency-key must be at most 200 characters' },
    // one device still has every flag checked before anything is sent
    { argv: ['HW-1', '--concurrency', '0', '--yes'], error: '--concurrency must be a whole number from 1 to 64, got "0"' },
    { argv: ['HW-1', '--max-devices', 'many', '--yes'], error: '--max-devices must be a whole number of at least 1, got "many"' },
    // rerun what failed: a new run over an earlier one's devices, failed ones by default
    { argv: ['--from-run', 'R1'], want: { mode: 'bulk', source: { ids: [], fromFile: undefined, fleetId: undefined, organizationId: undefined, fromRun: { runId: 'R1', only: ['failed'], allowEmpty: false } } } },
    { argv: ['--from-run', 'R1', '--only', 'failed, not_back,failed', '--canary', '1', '--wait'], want: { mode: 'bulk', source: expect.objectContaining({ fromRun: { runId: 'R1', only: ['failed', 'not_back'], allowEmpty: false } }), waves: { canary: { count: 1 } } } as Partial<DeviceCommandInvocation> },
    { argv: ['--only', 'failed'], error: '--only goes with --from-run RUN_ID' },
    { argv: ['--from-run', 'R1', '--only', 'broken'], error: '--only: "broken" is not an outcome of a run' },
    { argv: ['--from-run', 'R1', '--only', ','], error: '--only needs at least one outcome' },
    { argv: ['--from-run', 'R1', '--resume', 'R1'], error: 'give --from-run or --resume, not both' },
    { argv: ['--from-run', 'R1', 'HW-1'], error: '--from-run takes its devices from the earlier run' },
    { argv: ['--from-run', '../x'], error: '--from-run must be a run id' },
  ];
  for (const c of cases) {
    it(c.argv.join(' ') || '(nothing)', async () => {
      const { run, calls } = record();
      const promise = parseVerb(newDevicesRebootCommand(fakeDeps().deps, run), c.argv);
      if (c.error) return expect(promise).rejects.toThrow(c.error);
      await promise;
      expect(calls[0]).toMatchObject(c.want!);
    });
  }
});

describe('devices reboot, bulk: run', () => {
  it('ids from a file and a fleet selection, deduplicated; keys derived from BASE; summary and exit 10', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'ids.txt');
    writeFileSync(file, 'HW-1\n# comment\nHW-2\n');
    const f = fakeDeps({
      configDir: dir,
      answers: [
        { method: 'GET', path: `/v1/devices?fleet_id=${FLEET}&limit=500`, body: { data: [{ hardware_id: 'HW-2' }, { hardware_id: 'HW-3' }], next_cursor: null, has_more: false } },
        reboot('HW-1'),
        reboot('HW-2', 202, undefined, { 'idempotent-replayed': 'true' }),
        reboot('HW-3', 422, problem(422, 'device.capability_missing', { capability: 'reboot' })),
      ],
    });
    const error = await bulkCommandRun(f.deps, REBOOT, base({ source: { ids: ['HW-1'], fromFile: file, fleetId: FLEET }, keyBase: 'ci-42' })).catch((e: unknown) => e);
    expect(error).toMatchObject({ exitCode: 10, message: 'reboot failed for 1 of 3 devices' });
    expect(f.sent.filter((s) => s.method === 'POST').map((s) => s.headers['Idempotency-Key'])).toEqual(['ci-42:HW-1', 'ci-42:HW-2', 'ci-42:HW-3']);
    expect(f.io.stdout()).toBe(
      [
        'hardware_id\tstatus\thttp_status\tcode\tidempotency_key',
        'HW-1\taccepted\t202\t\tci-42:HW-1',
        'HW-2\treplayed\t202\t\tci-42:HW-2',
        'HW-3\tcapability_missing\t422\tdevice.capability_missing\tci-42:HW-3',
        '',
      ].join('\n'),
    );
    const stderr = f.io.stderr().split('\n');
    expect(stderr[0]).toMatch(/^Run \d{8}T\d{6}Z-[0-9a-f]{6}: reboot of 3 devices; journal .*\.ndjson \(if interrupted: --resume /);
    expect(stderr[1]).toMatch(/^Reboot, run \S+: 3 devices: 1 accepted, 1 replayed, 1 capability missing, 0 not found, 0 failed$/);
    expect(stderr[2]).toBe('  capability missing: HW-3');
  });

  it('-o ndjson: one result object per device, as they arrive', async () => {
    const f = fakeDeps({ configDir: tempDir(), format: 'ndjson', answers: [reboot('HW-1'), reboot('HW-2')] });
    await bulkCommandRun(f.deps, REBOOT, base({ source: { ids: ['HW-1', 'HW-2'] }, keyBase: 'b' }));
    expect(f.io.stdout().trim().split('\n').map((l) => JSON.parse(l))).toEqual([
      { hardware_id: 'HW-1', status: 'accepted', http_status: 202, code: null, idempotency_key: 'b:HW-1', command: 'reboot' },
      { hardware_id: 'HW-2', status: 'accepted', http_status: 202, code: null, idempotency_key: 'b:HW-2', command: 'reboot' },
    ]);
  });

  it('all failing alike exits with their own code (7)', async () => {
    const f = fakeDeps({ configDir: tempDir(), answers: [reboot('HW-1', 422, problem(422, 'device.capability_missing'))] });
    await expect(bulkCommandRun(f.deps, REBOOT, base({ source: { ids: ['HW-1', 'HW-1'] } }))).rejects.toMatchObject({ exitCode: 7 });
  });

  it('--dry-run lists devices and keys and sends nothing, no journal', async () => {
    const dir = tempDir();
    const f = fakeDeps({ configDir: dir, format: 'csv', answers: [lookup('HW-1'), lookup('HW-2')] });
    await bulkCommandRun(f.deps, REBOOT, base({ source: { ids: ['HW-1', 'HW-2'] }, keyBase: 'ci', dryRun: true, yes: false }));
    expect(f.io.stdout()).toBe('hardware_id,command,idempotency_key\nHW-1,reboot,ci:HW-1\nHW-2,reboot,ci:HW-2\n');
    expect(f.io.stderr()).toBe(
      'Dry run: would send reboot to 2 devices; nothing was sent.\n' +
        'Capability not checked for 2 devices named by hardware id: the API refuses those that lack the reboot capability, reported as capability missing (a failed device: exit 10).\n',
    );
    // each device named was looked up, as the real run would find it; nothing else
    expect(f.sent.map((s) => s.method)).toEqual(['GET', 'GET']);
  });

  it('--dry-run without BASE says its keys are not the ones a real run will send', async () => {
    const f = fakeDeps({ configDir: tempDir(), answers: [lookup('HW-1'), lookup('HW-2')] });
    await bulkCommandRun(f.deps, REBOOT, base({ source: { ids: ['HW-1', 'HW-2'] }, dryRun: true }));
    expect(f.io.stderr().split('\n')).toEqual([
      'Dry run: would send reboot to 2 devices; nothing was sent.',
      expect.stringMatching(/^Capability not checked for 2 devices/),
      'The keys shown belong to this dry run only: a real run gets a new run id; pass --idempotency-key BASE to fix them.',
      '',
    ]);
    expect(f.sent.map((s) => s.method)).toEqual(['GET', 'GET']);
  });

  it('--dry-run names the devices the service does not know: exit 5, nothing sent, nothing listed', async () => {
    const f = fakeDeps({ configDir: tempDir(), answers: [lookup('HW-1'), lookup('HW-0000001', false), lookup('HW-3')] });
    const error = await bulkCommandRun(f.deps, REBOOT, base({ source: { ids: ['HW-1', 'HW-0000001', 'HW-3'] }, dryRun: true })).catch((e: unknown) => e);
    expect(error).toMatchObject({ exitCode: 5, message: '1 of the 3 devices named is unknown to the service: HW-0000001; the reboot would fail for it (not found)' });
    expect(f.io.stdout()).toBe('');
    expect(f.sent.every((s) => s.method === 'GET')).toBe(true);
  });

  it('the scope the command needs is obtained before the prompt: a profile without it is refused first, nothing asked or journalled', async () => {
    const dir = tempDir();
    const f = fakeDeps({ configDir: dir, tty: true });
    const real = await f.deps.api();
    const refused = new AuthError('token request failed for client "c", scope thirdparty.api.device_commands_reboot: invalid_scope', 'not granted');
    const asked: string[] = [];
    const api = Object.assign(Object.create(real) as ApiClient, { accessToken: async (scope: string) => (asked.push(scope), Promise.reject(refused)) });
    const error = await bulkCommandRun({ ...f.deps, api: async () => api }, REBOOT, base({ source: { ids: ['HW-1', 'HW-2'] }, yes: false })).catch((e: unknown) => e);
    expect(error).toBe(refused);
    expect(asked).toEqual(['thirdparty.api.device_commands_reboot']);
    expect(f.prompts).toEqual([]);
    expect(f.sent).toEqual([]);
    expect(existsSync(path.join(dir, 'runs'))).toBe(false);
  });

  it('piped without --yes: refused (exit 2), nothing sent', async () => {
    const f = fakeDeps({ configDir: tempDir() });
    await expect(bulkCommandRun(f.deps, REBOOT, base({ source: { ids: ['HW-1', 'HW-2'] }, yes: false }))).rejects.toMatchObject({
      exitCode: 2,
      message: 'reboot of 2 devices not sent: confirmation required',
    });
    expect(f.sent).toEqual([]);
  });

  it('on a TTY: asks with the count and a sample', async () => {
    const ids = ['HW-1', 'HW-2', 'HW-3', 'HW-4', 'HW-5', 'HW-6', 'HW-7'];
    const f = fakeDeps({ configDir: tempDir(), tty: true, inputs: ['n'] });
    await expect(bulkCommandRun(f.deps, REBOOT, base({ source: { ids }, yes: false }))).rejects.toThrow('not confirmed');
    expect(f.prompts).toEqual(['Reboot 7 devices (HW-1, HW-2, HW-3, HW-4, HW-5, and 2 more)?']);
  });

  it('above --max-devices, --yes is needed even on a TTY', async () => {
    const f = fakeDeps({ configDir: tempDir(), tty: true });
    await expect(bulkCommandRun(f.deps, REBOOT, base({ source: { ids: ['HW-1', 'HW-2', 'HW-3'] }, yes: false, maxDevices: 2 }))).rejects.toMatchObject({
      exitCode: 2,
      message: 'reboot of 3 devices is more than --max-devices 2',
    });
    expect(f.prompts).toEqual([]);
  });

  const emptyPage = (query: string): ScriptedAnswer => ({ method: 'GET', path: `/v1/devices?${query}&limit=500`, body: { data: [], next_cursor: null, has_more: false } });

  it('a selection that matches no device is not found (exit 5), naming it and how to list fleets', async () => {
    const f = fakeDeps({ configDir: tempDir(), answers: [emptyPage(`fleet_id=${FLEET}`)] });
    await expect(bulkCommandRun(f.deps, REBOOT, base({ source: { ids: [], fleetId: FLEET } }))).rejects.toMatchObject({
      exitCode: 5,
      message: `--fleet-id ${FLEET} matched no device`,
      hint: 'check the id with fleetctl fleets list; pass --allow-empty if an empty selection is fine',
    });
    expect(f.io.stderr()).toBe('');
  });

  it('an organization selection that matches nothing points at organizations list; hardware ids named too do not hide it', async () => {
    const f = fakeDeps({ configDir: tempDir(), answers: [emptyPage(`organization_id=${FLEET}`)] });
    await expect(bulkCommandRun(f.deps, REBOOT, base({ source: { ids: ['HW-1'], organizationId: FLEET } }))).rejects.toMatchObject({
      exitCode: 5,
      message: `--organization-id ${FLEET} matched no device`,
      hint: 'check the id with fleetctl organizations list; pass --allow-empty if an empty selection is fine',
    });
  });

  it('with --allow-empty, an empty selection sends nothing and succeeds', async () => {
    const f = fakeDeps({ configDir: tempDir(), answers: [emptyPage(`fleet_id=${FLEET}`)] });
    await bulkCommandRun(f.deps, REBOOT, base({ source: { ids: [], fleetId: FLEET }, allowEmpty: true }));
    expect(f.io.stderr()).toBe('No devices matched: nothing to send.\n');
  });

  it('the journal records each result; --resume skips what is done and retries the rest with the same keys', async () => {
    const dir = tempDir();
    const f = fakeDeps({
      configDir: dir,
      answers: [reboot('HW-1'), reboot('HW-2', 503, problem(503, 'service.unavailable')), reboot('HW-3', 404, problem(404, 'resource.not_found'))],
    });
    // no retries for this test: the 503 stays a failure
    f.deps.globals = () => ({ maxRetries: '0' });
    const first = await bulkCommandRun(f.deps, REBOOT, base({ source: { ids: ['HW-1', 'HW-2', 'HW-3'] } })).catch((e: unknown) => e as Error);
    expect(first).toMatchObject({ exitCode: 10 });
    const runId = /Run (\S+):/.exec(f.io.stderr())![1]!;
    expect((first as { hint?: string }).hint).toBe(`resume with: fleetctl devices reboot --resume ${runId} --yes to retry the failed devices (those done are skipped)`);
    const journalFile = path.join(dir, 'runs', `${runId}.ndjson`);
    const lines = readFileSync(journalFile, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(lines[0]).toMatchObject({ type: 'run', run_id: runId, command: 'reboot', key_base: `fleetctl-run-${runId}`, targets: ['HW-1', 'HW-2', 'HW-3'] });
    // before the first request, the line that sending began (synced to disk)
    expect(lines[1]).toEqual({ type: 'sending', at: expect.any(String) });
    expect(lines.slice(2).map((l) => [l.hardware_id, l.status])).toEqual([
      ['HW-1', 'accepted'],
      ['HW-2', 'failed'],
      ['HW-3', 'not_found'],
    ]);

    const again = fakeDeps({ configDir: dir, format: 'ndjson', answers: [reboot('HW-2')] });
    // HW-3 is unknown: still a failure, so still exit 10
    await expect(bulkCommandRun(again.deps, REBOOT, base({ resume: runId }))).rejects.toMatchObject({ exitCode: 10 });
    expect(again.sent.map((s) => [s.path, s.headers['Idempotency-Key']])).toEqual([[`/v1/devices/HW-2/commands/reboot`, `fleetctl-run-${runId}:HW-2`]]);
    // stdout: only what this run completed (appended to the first run's output, no duplicates); the summary counts all 3
    expect(again.io.stdout().trim().split('\n').map((l) => [JSON.parse(l).hardware_id, JSON.parse(l).status])).toEqual([['HW-2', 'accepted']]);
    expect(again.io.stderr()).toContain('3 devices: 2 accepted, 0 replayed, 0 capability missing, 1 not found, 0 failed');
    expect(again.io.stderr()).toContain('reboot of 1 device (2 already done)');
    expect((await Journal.open(journalFile, runId)).results.get('HW-2')?.status).toBe('accepted');
  });

  it('--resume refuses a journal of another command, another key, or extra devices', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'j.ndjson');
    (await Journal.create(file, { type: 'run', version: 1, run_id: 'r1', command: 'wake_up', key_base: 'b', targets: ['HW-1'], created_at: 'x' })).close();
    const f = fakeDeps({ configDir: dir });
    await expect(bulkCommandRun(f.deps, REBOOT, base({ resume: 'r1', journal: file }))).rejects.toThrow('run r1 was a wake-up, not a reboot');
    await expect(bulkCommandRun(f.deps, REBOOT, base({ resume: 'r2', journal: file }))).rejects.toThrow(`journal ${file} is for run r1, not r2`);
    await expect(bulkCommandRun(f.deps, REBOOT, base({ resume: 'nope' }))).rejects.toThrow('no journal for run nope at');
    await expect(bulkCommandRun(f.deps, REBOOT, base({ resume: 'r1', source: { ids: ['HW-9'] } }))).rejects.toThrow('--resume takes its devices from the journal');
  });

  it('the journal names the service and client the run went to; --resume elsewhere is refused naming both, before anything is sent', async () => {
    const dir = tempDir();
    const f = fakeDeps({ configDir: dir, answers: [reboot('HW-1'), reboot('HW-2', 503, problem(503, 'service.unavailable'))] });
    f.deps.globals = () => ({ maxRetries: '0' });
    await expect(bulkCommandRun(f.deps, REBOOT, base({ source: { ids: ['HW-1', 'HW-2'] } }))).rejects.toMatchObject({ exitCode: 10 });
    const runId = /Run (\S+):/.exec(f.io.stderr())![1]!;
    const header = JSON.parse(readFileSync(path.join(dir, 'runs', `${runId}.ndjson`), 'utf8').split('\n')[0]!);
    expect(header.service).toEqual({ base_url: 'https://api.fleet.test', client_id: 'test-client' });
    expect(JSON.stringify(header)).not.toContain('test-secret');

    const elsewhere = fakeDeps({ configDir: dir });
    const settings = await elsewhere.deps.settings();
    elsewhere.deps.settings = async () => ({ ...settings, base_url: { value: 'https://staging.fleet.test', source: 'flag' } });
    const refused = await bulkCommandRun(elsewhere.deps, REBOOT, base({ resume: runId })).catch((e: unknown) => e);
    expect(refused).toMatchObject({
      exitCode: 2,
      message: `run ${runId} was sent to https://api.fleet.test (client test-client), not to https://staging.fleet.test (client test-client): it is not resumed elsewhere`,
    });
    expect(elsewhere.sent).toEqual([]);
    // refused, the journal is not left locked: the right service resumes it
    const same = fakeDeps({ configDir: dir, answers: [reboot('HW-2')] });
    await bulkCommandRun(same.deps, REBOOT, base({ resume: runId }));
    expect(same.sent.map((s) => s.path)).toEqual(['/v1/devices/HW-2/commands/reboot']);
  });

  it('--resume of a run another process is still writing is refused at once, naming the run and the process (exit 6); nothing is sent', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'j.ndjson');
    const running = await Journal.create(file, { type: 'run', version: 1, run_id: 'r1', command: 'reboot', key_base: 'b', targets: ['HW-1'], created_at: 'x' });
    const f = fakeDeps({ configDir: dir });
    const error = await bulkCommandRun(f.deps, REBOOT, base({ resume: 'r1', journal: file })).catch((e: unknown) => e);
    expect(error).toMatchObject({ exitCode: 6 });
    expect((error as Error).message).toMatch(new RegExp(`^run r1 is in use by process ${process.pid} \\(a bulk run, since [^)]+\\): could not lock ${file}\\.lock$`));
    expect(f.sent).toEqual([]);
    running.close();
    const later = fakeDeps({ configDir: dir, answers: [reboot('HW-1')] });
    await bulkCommandRun(later.deps, REBOOT, base({ resume: 'r1', journal: file }));
    expect(later.sent).toHaveLength(1);
  });

  it('Ctrl-C: stops sending, says how to resume, and ends with the cancellation', async () => {
    const dir = tempDir();
    const controller = new AbortController();
    const f = fakeDeps({ configDir: dir, format: 'ndjson', answers: [reboot('HW-1')] });
    // Ctrl-C as soon as the first result is out
    const output = () => {
      const o = f.deps.output();
      const write = o.item.bind(o);
      o.item = (record: unknown) => {
        const written = write(record);
        controller.abort(new Error('Interrupted'));
        return written;
      };
      return o;
    };
    const deps = { ...f.deps, signal: controller.signal, interruptSignal: controller.signal, output };
    await expect(bulkCommandRun(deps, REBOOT, base({ source: { ids: ['HW-1', 'HW-2', 'HW-3'] } }))).rejects.toThrow('Interrupted');
    expect(f.sent).toHaveLength(1);
    expect(f.io.stderr()).toMatch(/Interrupted after 1 of 3 devices; resume with: fleetctl devices reboot --resume \S+ --yes/);
  });

  it.each([
    ['refusing the client (exit 3)', new AuthError('token request failed for client "c": invalid_client (bad secret)', 'check the client secret')],
    ['unreachable (exit 9)', new TokenEndpointUnavailable('token request failed for client "c": connection refused (ECONNREFUSED)', 'check the URL')],
  ])('a token endpoint %s stops the run with that error, records nothing for it, and says how to resume', async (_what, refused) => {
    const dir = tempDir();
    const f = fakeDeps({ configDir: dir, format: 'ndjson' });
    const real = await f.deps.api();
    // as the API client fails when the token endpoint refuses: before any request reaches the API
    // the token for the command's scope came before the prompt; the next one (a refresh) is refused
    const api = { retryPolicy: real.retryPolicy, accessToken: async () => 'first', derive: () => ({ call: () => Promise.reject(refused) }) } as unknown as ApiClient;
    const deps = { ...f.deps, api: async () => api };
    const error = await bulkCommandRun(deps, REBOOT, base({ source: { ids: ['HW-1', 'HW-2', 'HW-3'] }, concurrency: 2 })).catch((e: unknown) => e);
    expect(error).toBe(refused);
    expect(f.sent).toEqual([]);
    expect(f.io.stdout()).toBe('');
    const runId = /Run (\S+):/.exec(f.io.stderr())![1]!;
    expect(f.io.stderr()).toContain(`Stopped after 0 of 3 devices: nothing more was sent. Once this is fixed, resume with: fleetctl devices reboot --resume ${runId} --yes`);
    expect((await Journal.open(path.join(dir, 'runs', `${runId}.ndjson`), runId)).results.size).toBe(0);
  });

  it('--resume of a run with nothing left asks nothing and sends nothing', async () => {
    const dir = tempDir();
    const first = fakeDeps({ configDir: dir, answers: [reboot('HW-1')] });
    await bulkCommandRun(first.deps, REBOOT, base({ source: { ids: ['HW-1', 'HW-1'] } }));
    const runId = /Run (\S+):/.exec(first.io.stderr())![1]!;
    const again = fakeDeps({ configDir: dir, tty: false });
    await bulkCommandRun(again.deps, REBOOT, base({ resume: runId, yes: false }));
    expect(again.sent).toEqual([]);
    expect(again.prompts).toEqual([]);
    // nothing completed in this run: no row on stdout (an empty list: the header only); the summary counts the run
    expect(again.io.stdout()).not.toContain('HW-1');
    expect(again.io.stderr()).toMatch(/accepted/);
  });

  it('an existing --journal names the run it belongs to; an unwritable one stops before anything is sent (exit 2)', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'j.ndjson');
    (await Journal.create(file, { type: 'run', version: 1, run_id: 'r1', command: 'reboot', key_base: 'b', targets: ['HW-1'], created_at: 'x' })).close();
    // a journal with a result (one with none is replaced: test/io/disk-full.test.ts)
    appendFileSync(file, `${JSON.stringify({ hardware_id: 'HW-1', status: 'accepted', type: 'result', at: 'x' })}\n`);
    const f = fakeDeps({ configDir: dir });
    await expect(bulkCommandRun(f.deps, REBOOT, base({ source: { ids: ['HW-1', 'HW-2'] }, journal: file }))).rejects.toMatchObject({
      exitCode: 2,
      message: `journal ${file} already exists`,
      hint: `it is the journal of run r1: finish that run with --resume r1 --journal ${file}, or choose another --journal`,
    });
    const blocked = path.join(dir, 'j.ndjson', 'sub', 'j.ndjson');
    await expect(bulkCommandRun(f.deps, REBOOT, base({ source: { ids: ['HW-1', 'HW-2'] }, journal: blocked }))).rejects.toMatchObject({
      exitCode: 2,
      message: `cannot write the journal ${blocked}: cannot create ${path.dirname(blocked)}: ${file} exists and is not a directory`,
    });
    expect(f.sent).toEqual([]);
  });

  it('the progress line on a TTY counts as failed what the summary does (a device without the capability too)', async () => {
    const f = fakeDeps({ configDir: tempDir(), tty: true, answers: [reboot('HW-1'), reboot('HW-2', 422, problem(422, 'device.capability_missing'))] });
    await expect(bulkCommandRun(f.deps, REBOOT, base({ source: { ids: ['HW-1', 'HW-2'] } }))).rejects.toMatchObject({ exitCode: 10 });
    // each drawing of the line starts at its first column (the line is redrawn in place, then cleared)
    const drawings = f.io.stderr().split(/\n|\u001b\[1G/).map((text) => stripVTControlCharacters(text));
    // no rate before a second has passed (io/progress.ts): this run takes milliseconds
    expect(drawings.find((line) => / 2\/2 /.test(line))).toMatch(/^reboot .* 100% {2}2\/2 {2}1 failed$/);
    // cleared once the run ended: its last drawing is not ended with a newline but emptied, what follows in its place
    expect(f.io.stderr()).toMatch(/2\/2 {2}(\u001b\[\d+m)?1 failed(\u001b\[\d+m)?\u001b\[1G\u001b\[2K[^\n]/);
  });
});
