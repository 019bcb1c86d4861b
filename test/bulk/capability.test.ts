// A bulk reboot/wake-up says, before anything is sent, how many devices lack the capability by their records
// and that they are skipped; for devices named by hardware id, that the API decides.
import { describe, expect, it } from 'vitest';
import { REBOOT, WAKE_UP } from '../../src/commands/devices/device-command.js';
import type { BulkCommandOptions } from '../../src/bulk/run.js';
import { bulkCommandRun } from '../../src/commands/devices/command-run.js';
import { checkCapability } from '../../src/bulk/capability.js';
import { records } from '../../src/records/resources.js';

const listedCapabilities = (value: unknown) => records.device.capabilitiesOf({ capabilities: value });
import { UsageError } from '../../src/errors.js';
import { fakeDeps, type ScriptedAnswer } from '../commands/fake-deps.js';
import { tempDir as newTempDir } from '../support/temp-dir.js';

const FLEET = '22222222-2222-4222-8222-222222222222';
const YELLOW = (text: string) => `\u001b[33m${text}\u001b[39m`;

const tempDir = () => newTempDir('bulk-capability-');

/** The fleet: HW-1 can do both, HW-2 only wakes up, HW-3 can do nothing. */
const fleet = (devices: object[] = [
  { hardware_id: 'HW-1', capabilities: ['reboot', 'wake_up'] },
  { hardware_id: 'HW-2', capabilities: ['wake_up'] },
  { hardware_id: 'HW-3', capabilities: [] },
]): ScriptedAnswer => ({ method: 'GET', path: `/v1/devices?fleet_id=${FLEET}&limit=500`, body: { data: devices, next_cursor: null, has_more: false } });

const sent = (command: string, hw: string): ScriptedAnswer => ({
  method: 'POST',
  path: `/v1/devices/${hw}/commands/${command.replace('_', '-')}`,
  status: 202,
  body: { id: 'c', hardware_id: hw, command, status: 'accepted', idempotency_key: 'k', accepted_at: 'x' },
});

const options = (o: Partial<BulkCommandOptions> = {}): BulkCommandOptions => ({
  source: { ids: [], fleetId: FLEET },
  yes: false,
  dryRun: false,
  maxDevices: 100,
  concurrency: 1,
  keyBase: 'k',
  ...o,
});

describe('which devices can take the command, by their records', () => {
  it('lacking when the record lists other capabilities; unchecked when there is no record (or no list in it)', () => {
    const check = checkCapability(
      { ids: ['HW-1', 'HW-2', 'HW-9', 'HW-4'], capabilities: new Map([['HW-1', ['reboot']], ['HW-2', ['wake_up']], ['HW-4', []]]) },
      'reboot',
    );
    expect(check).toEqual({ sendable: ['HW-1', 'HW-9'], lacking: ['HW-2', 'HW-4'], unchecked: 1, unstated: 0 });
  });

  it('a list is read only in the form fleetctl understands: names among which a command it sends, or none at all', () => {
    expect(listedCapabilities(['wake_up', 'gps'])).toEqual(['wake_up', 'gps']);
    expect(listedCapabilities([])).toEqual([]);
    // another vocabulary, another shape: a guess, so nothing to skip a device for
    for (const unknown of [['REBOOT'], ['gps', 'video'], [{ name: 'reboot' }], ['reboot', 7], 'reboot,wake_up', { reboot: true }, null, undefined, 3]) {
      expect(listedCapabilities(unknown), JSON.stringify(unknown)).toBeUndefined();
    }
  });
});

describe('devices reboot, bulk: devices without the capability', () => {
  it.each([false, true])('--dry-run lists only the devices sent to, and counts those skipped (tty %s)', async (tty) => {
    const f = fakeDeps({ configDir: tempDir(), tty, answers: [fleet()] });
    await bulkCommandRun(f.deps, REBOOT, options({ dryRun: true }));
    f.assertAllAnswered();
    expect(f.sent.map((s) => s.method)).toEqual(['GET']);
    if (!tty) expect(f.io.stdout()).toBe('hardware_id\tcommand\tidempotency_key\nHW-1\treboot\tk:HW-1\n');
    const count = '2 of the 3 devices lack the reboot capability';
    expect(f.io.stderr()).toBe(
      'Dry run: would send reboot to 1 device; nothing was sent.\n' + `${tty ? YELLOW(count) : count} by their records: would be skipped, not sent (HW-2, HW-3).\n`,
    );
  });

  it('--dry-run of named devices and a selection: skipped by record, unknown for the named ones', async () => {
    const lookup = (hw: string): ScriptedAnswer => ({ method: 'GET', path: `/v1/devices?hardware_id=${hw}&limit=1`, body: { data: [{ hardware_id: hw }], next_cursor: null, has_more: false } });
    const f = fakeDeps({ configDir: tempDir(), answers: [fleet(), lookup('HW-7'), lookup('HW-8')] });
    await bulkCommandRun(f.deps, WAKE_UP, options({ source: { ids: ['HW-7', 'HW-8'], fleetId: FLEET }, dryRun: true }));
    expect(f.io.stdout().trim().split('\n').map((l) => l.split('\t')[0])).toEqual(['hardware_id', 'HW-7', 'HW-8', 'HW-1', 'HW-2']);
    expect(f.io.stderr()).toBe(
      'Dry run: would send wake-up to 4 devices; nothing was sent.\n' +
        '1 of the 5 devices lacks the wake_up capability by their records: would be skipped, not sent (HW-3).\n' +
        'Capability not checked for 2 devices named by hardware id: the API refuses those that lack the wake_up capability, reported as capability missing (a failed device: exit 10).\n',
    );
  });

  it.each([
    ['n', 2],
    ['y', 0],
  ])('on a terminal: says what is skipped, asks with the count left (answer %s)', async (answer, exitCode) => {
    const f = fakeDeps({ configDir: tempDir(), tty: true, inputs: [answer], answers: answer === 'y' ? [fleet(), sent('reboot', 'HW-1')] : [fleet()] });
    const outcome = await bulkCommandRun(f.deps, REBOOT, options()).catch((e: unknown) => e);
    f.assertAllAnswered();
    expect(f.prompts).toEqual(['Reboot 1 device (HW-1), skipping 2 that lack the capability?']);
    const stderr = f.io.stderr().split('\n');
    expect(stderr[0]).toBe(`${YELLOW('2 of the 3 devices lack the reboot capability')} by their records: will be skipped, not sent (HW-2, HW-3).`);
    if (exitCode === 2) {
      expect(outcome).toMatchObject({ exitCode: 2, message: 'reboot of 1 device not sent: not confirmed' });
      expect(f.sent.map((s) => s.method)).toEqual(['GET']);
    } else {
      expect(outcome).toBeUndefined();
      expect(f.sent.map((s) => `${s.method} ${s.path}`)).toEqual([`GET /v1/devices?fleet_id=${FLEET}&limit=500`, 'POST /v1/devices/HW-1/commands/reboot']);
      expect(stderr).toContain(`  ${YELLOW('skipped, no reboot capability by their records')}: HW-2, HW-3`);
    }
  });

  it('on a terminal, named devices: the question says nothing is skipped, the line before it that the API decides', async () => {
    const f = fakeDeps({ configDir: tempDir(), tty: true, inputs: ['n'] });
    await expect(bulkCommandRun(f.deps, REBOOT, options({ source: { ids: ['HW-7', 'HW-8'] } }))).rejects.toThrow('not confirmed');
    expect(f.prompts).toEqual(['Reboot 2 devices (HW-7, HW-8)?']);
    expect(f.io.stderr()).toMatch(/^Capability not checked for 2 devices named by hardware id: /);
  });

  it('piped without --yes: refused before it says or sends anything (exit 2)', async () => {
    const f = fakeDeps({ configDir: tempDir(), tty: false, answers: [fleet()] });
    const error = (await bulkCommandRun(f.deps, REBOOT, options()).catch((e: unknown) => e)) as UsageError;
    expect(error).toBeInstanceOf(UsageError);
    expect([error.exitCode, error.message, error.hint]).toEqual([2, 'reboot of 1 device not sent: confirmation required', 'pass --yes to confirm when not running interactively']);
    expect(f.sent.map((s) => s.method)).toEqual(['GET']);
    expect(f.io.stderr()).toBe('');
  });

  it('with --yes: says what it skips, sends to the others only; skipped devices are not failures (exit 0) and not results', async () => {
    const f = fakeDeps({ configDir: tempDir(), format: 'json', answers: [fleet(), sent('wake_up', 'HW-1'), sent('wake_up', 'HW-2')] });
    await bulkCommandRun(f.deps, WAKE_UP, options({ yes: true }));
    f.assertAllAnswered();
    expect((JSON.parse(f.io.stdout()) as { hardware_id: string; status: string }[]).map((r) => [r.hardware_id, r.status])).toEqual([
      ['HW-1', 'accepted'],
      ['HW-2', 'accepted'],
    ]);
    const stderr = f.io.stderr().split('\n');
    expect(stderr[0]).toBe('1 of the 3 devices lacks the wake_up capability by their records: skipped, not sent (HW-3).');
    expect(stderr[1]).toMatch(/^Run \S+: wake-up of 2 devices; journal /);
    expect(stderr.slice(2)).toEqual([
      expect.stringMatching(/^Wake up, run \S+: 2 devices: 2 accepted, 0 replayed, 0 capability missing, 0 not found, 0 failed$/),
      '  skipped, no wake_up capability by their records: HW-3',
      '',
    ]);
  });

  it.each([false, true])('no device of the selection can: nothing sent, and never exit 0 (exit 7, naming them; dry run %s)', async (dryRun) => {
    const f = fakeDeps({ configDir: tempDir(), answers: [fleet([{ hardware_id: 'HW-3', capabilities: [] }, { hardware_id: 'HW-2', capabilities: ['wake_up'] }])] });
    const error = await bulkCommandRun(f.deps, REBOOT, options({ yes: true, dryRun })).catch((e: unknown) => e);
    expect(error).toMatchObject({ exitCode: 7, message: 'reboot sent to none of the 2 devices: each record lacks the reboot capability (HW-3, HW-2)' });
    expect(f.sent.map((s) => s.method)).toEqual(['GET']);
    expect(f.io.stderr()).toBe(`2 of the 2 devices lack the reboot capability by their records: ${dryRun ? 'would be skipped' : 'skipped'}, not sent (HW-3, HW-2).\n`);
  });

  it('a record whose capabilities fleetctl cannot read is sent, never skipped: the API decides (its 422 is an answer)', async () => {
    const odd = [
      { hardware_id: 'HW-5', capabilities: ['REBOOT'] },
      { hardware_id: 'HW-6', capabilities: [{ name: 'reboot' }] },
      { hardware_id: 'HW-7', capabilities: 'reboot' },
      { hardware_id: 'HW-8' },
    ];
    const refused = { ...sent('reboot', 'HW-8'), status: 422, body: { status: 422, code: 'device.capability_missing', detail: 'no' } };
    const f = fakeDeps({ configDir: tempDir(), format: 'ndjson', answers: [fleet(odd), sent('reboot', 'HW-5'), sent('reboot', 'HW-6'), sent('reboot', 'HW-7'), refused] });
    const error = await bulkCommandRun(f.deps, REBOOT, options({ yes: true })).catch((e: unknown) => e);
    f.assertAllAnswered();
    expect(error).toMatchObject({ exitCode: 10 });
    expect(f.io.stdout().trim().split('\n').map((l) => [JSON.parse(l).hardware_id, JSON.parse(l).status])).toEqual([
      ['HW-5', 'accepted'], ['HW-6', 'accepted'], ['HW-7', 'accepted'], ['HW-8', 'capability_missing'],
    ]);
    expect(f.io.stderr()).not.toContain('skipped');
  });

  it('--dry-run says for how many devices the records do not say, apart from those named by hardware id', async () => {
    const f = fakeDeps({ configDir: tempDir(), answers: [fleet([{ hardware_id: 'HW-5', capabilities: ['REBOOT'] }, { hardware_id: 'HW-1', capabilities: ['reboot'] }])] });
    await bulkCommandRun(f.deps, REBOOT, options({ dryRun: true }));
    expect(f.io.stderr()).toContain(
      'Capability not stated by the record of 1 device in a form fleetctl reads: it is sent, and the API refuses it if it lacks the reboot capability (capability missing, a failed device).\n',
    );
    expect(f.io.stderr()).not.toContain('named by hardware id');
  });

  it('ids from records are made harmless in the lines and the question', async () => {
    const hostile = 'HW-\u001b]0;owned\u0007';
    const f = fakeDeps({
      configDir: tempDir(),
      tty: true,
      inputs: ['n'],
      answers: [fleet([{ hardware_id: hostile, capabilities: ['reboot'] }, { hardware_id: `${hostile}2`, capabilities: [] }])],
    });
    await expect(bulkCommandRun(f.deps, REBOOT, options())).rejects.toThrow('not confirmed');
    expect(f.prompts[0]).toBe('Reboot 1 device (HW-\\x1b]0;owned\\x07), skipping 1 that lacks the capability?');
    expect(f.io.stderr()).toContain('(HW-\\x1b]0;owned\\x072).');
    expect(f.io.stderr()).not.toContain('\u0007');
  });
});
