// The ledger as a command sees it: nothing recorded, nothing written; the line filled in from the settings and the
// redacted command line; a failure recorded with its status and code; a write that fails is one warning.
import { describe, expect, it } from 'vitest';
import path from 'node:path';
import { createLedger, ledgerFileOf, recordedChange, type LedgerDeps } from '../../src/ledger/recorder.js';
import { ledgerFilter } from '../../src/commands/history/filter.js';
import { redactCommandLine } from '../../src/shared/redact.js';
import { ApiError } from '../../src/errors.js';
import type { Settings } from '../../src/config/settings.js';
import type { LedgerEntry } from '../../src/ledger/entry.js';

const NOW = new Date('2026-11-27T12:00:00.000Z');
const none = { value: undefined, source: undefined };
const settings = {
  profile: { value: 'prod', source: 'flag' }, base_url: { value: 'https://api.example.com', source: 'profile' }, auth_url: none,
  client_id: { value: 'ops-bot', source: 'environment' }, client_secret: { value: 'never-written', source: 'environment' },
  client_secret_command: none, scopes: none, organization_id: none, ca_file: none, ledger_file: none,
} as Settings;

function recorder(over: Partial<LedgerDeps> = {}) {
  const lines: { file: string; line: string }[] = [];
  const warnings: string[] = [];
  const ledger = createLedger({
    env: {}, clock: { now: () => NOW } as LedgerDeps['clock'], configDir: () => '/home/me/.config/fleetctl', settings: async () => settings,
    warn: (line) => warnings.push(line), argv: ['devices', 'reboot', 'HW-1', '--yes'], append: async (file, line) => void lines.push({ file, line }), ...over,
  });
  return { ledger, lines, warnings, entries: () => lines.map((l) => JSON.parse(l.line) as LedgerEntry) };
}

describe('createLedger', () => {
  it('writes nothing for a command that recorded nothing (a read, a dry run)', async () => {
    const { ledger, lines } = recorder();
    await ledger.flush();
    expect(lines).toEqual([]);
  });

  it('writes one line, once, with the service, the client, the line and each target (the last word of each stands)', async () => {
    const { ledger, lines, entries } = recorder();
    ledger.record({ command: 'devices reboot', runId: '20261127T120000Z-abc123' });
    ledger.outcome({ target: 'HW-1', outcome: 'failed', http_status: 503 });
    ledger.outcome({ target: 'HW-2', outcome: 'accepted', idempotency_key: 'k:HW-2' });
    ledger.outcome({ target: 'HW-1', outcome: 'accepted', idempotency_key: 'k:HW-1' });
    await ledger.flush();
    await ledger.flush();
    expect(lines.map((l) => l.file)).toEqual([path.resolve('/home/me/.config/fleetctl/ledger.ndjson')]);
    expect(entries()).toEqual([{
      v: 1, time: NOW.toISOString(), profile: 'prod', base_url: 'https://api.example.com', client_id: 'ops-bot', command: 'devices reboot',
      argv: ['devices', 'reboot', 'HW-1', '--yes'], run_id: '20261127T120000Z-abc123',
      targets: [{ target: 'HW-1', outcome: 'accepted', idempotency_key: 'k:HW-1' }, { target: 'HW-2', outcome: 'accepted', idempotency_key: 'k:HW-2' }],
      outcomes: { accepted: 2 },
    }]);
    expect(lines[0]!.line).not.toContain('never-written');
  });

  it('a write that fails is one warning naming the file and why; flush itself never throws', async () => {
    const failing = Object.assign(new Error('EACCES: permission denied'), { code: 'EACCES' });
    const { ledger, warnings } = recorder({ append: async () => Promise.reject(failing) });
    ledger.record({ command: 'config set', targets: [{ target: 'profile prod base_url', outcome: 'set' }] });
    await expect(ledger.flush()).resolves.toBeUndefined();
    expect(warnings).toEqual([`the audit ledger ${path.resolve('/home/me/.config/fleetctl/ledger.ndjson')} could not be written (EACCES); the command itself is not affected`]);
  });

  it('FLEETCTL_LEDGER, then ledger_file, then the config directory', () => {
    const named = { ...settings, ledger_file: { value: 'audit/ledger.ndjson', source: 'profile' as const } };
    expect(ledgerFileOf(named, { FLEETCTL_LEDGER: '/var/log/fleet.ndjson' }, '/cfg')).toBe('/var/log/fleet.ndjson');
    expect(ledgerFileOf(named, {}, '/cfg')).toBe(path.resolve('audit/ledger.ndjson'));
    expect(ledgerFileOf(undefined, {}, '/cfg')).toBe('/cfg/ledger.ndjson');
  });
});

describe('recordedChange', () => {
  it('records the outcome, and the target the answer names, once the work succeeds', async () => {
    const { ledger, entries } = recorder();
    const answer = await recordedChange(ledger, { command: 'drivers create', target: '(new driver)', outcome: 'created', targetIn: (r: { id: string }) => r.id }, async () => ({ id: 'd-1' }));
    expect(answer).toEqual({ id: 'd-1' });
    await ledger.flush();
    expect(entries()[0]).toMatchObject({ command: 'drivers create', targets: [{ target: 'd-1', outcome: 'created' }], outcomes: { created: 1 } });
  });

  it('records a failure with the service\'s status and code, and throws the error unchanged', async () => {
    const { ledger, entries } = recorder();
    const refused = new ApiError({ status: 412, problem: { status: 412, code: 'precondition.failed', title: 'stale' } });
    await expect(recordedChange(ledger, { command: 'webhook-config enable', target: 'organization o-1', outcome: 'enabled' }, async () => Promise.reject(refused))).rejects.toBe(refused);
    await ledger.flush();
    expect(entries()[0]).toMatchObject({ targets: [{ target: 'organization o-1', outcome: 'failed', http_status: 412, code: 'precondition.failed' }], outcomes: { failed: 1 }, error: refused.message });
  });
});

describe('redactCommandLine', () => {
  it('replaces the value of a secret flag, a secret header, a secret field and the value after a secret setting', () => {
    expect(redactCommandLine(['config', 'set', 'client_secret', 's3cret'])).toEqual(['config', 'set', 'client_secret', '[REDACTED]']);
    expect(redactCommandLine(['webhook', 'listen', '--key', 'k1', '--previous-key=k0'])).toEqual(['webhook', 'listen', '--key', '[REDACTED]', '--previous-key=[REDACTED]']);
    expect(redactCommandLine(['api', '-X', 'POST', '/v1/x', '-H', 'X-Webhook-Key: abc', '-H', 'Accept: text/plain', '-f', 'auth_key=abc', '-F', 'name=n'])).toEqual(
      ['api', '-X', 'POST', '/v1/x', '-H', 'X-Webhook-Key: [REDACTED]', '-H', 'Accept: text/plain', '-f', 'auth_key=[REDACTED]', '-F', 'name=n'],
    );
    expect(redactCommandLine(['api', '--header=Authorization: Bearer tok'])).toEqual(['api', '--header=Authorization: Bearer [REDACTED]']);
    expect(redactCommandLine(['--input', '{"client_secret":"x","name":"n"}'])).toEqual(['--input', '{"client_secret":"[REDACTED]","name":"n"}']);
    expect(redactCommandLine(['devices', 'reboot', 'HW-1', '--idempotency-key', 'k'])).toEqual(['devices', 'reboot', 'HW-1', '--idempotency-key', 'k']);
  });

  it('a header that carries a credential by its name (X-Api-Key, X-Auth-Token, Private-Token) is redacted too; an Idempotency-Key is not', () => {
    const line = ['api', 'POST', '/v1/x', '-H', 'X-Api-Key: k-1', '-H', 'x-auth-token: t-1', '--header=Private-Token: p-1', '-H', 'Idempotency-Key: ik-1', '-H', 'X-Request-Id: r-1'];
    expect(redactCommandLine(line)).toEqual(['api', 'POST', '/v1/x', '-H', 'X-Api-Key: [REDACTED]', '-H', 'x-auth-token: [REDACTED]', '--header=Private-Token: [REDACTED]', '-H', 'Idempotency-Key: ik-1', '-H', 'X-Request-Id: r-1']);
  });
});

describe('ledgerFilter', () => {
  const entry = (command: string, outcomes: string[], time = '2026-11-27T12:00:00.000Z'): LedgerEntry => ({
    v: 1, time, profile: 'prod', base_url: null, client_id: null, command, argv: [], run_id: null,
    targets: outcomes.map((outcome, i) => ({ target: `HW-${i}`, outcome })), outcomes: {},
  });

  it('reads the selection language over the ledger\'s members: quotes, negation, either, contains, order', () => {
    const reboot = entry('devices reboot', ['accepted', 'failed']);
    const set = entry('config set', ['set'], '2026-11-01T00:00:00.000Z');
    const pick = (expression: string) => [reboot, set].filter(ledgerFilter(expression)).map((e) => e.command);
    expect(pick('command:"devices reboot"')).toEqual(['devices reboot']);
    expect(pick('outcome:failed')).toEqual(['devices reboot']);
    expect(pick('-outcome:failed')).toEqual(['config set']);
    expect(pick('outcome:set,failed profile:prod')).toEqual(['devices reboot', 'config set']);
    expect(pick('command:~reboot target:HW-1')).toEqual(['devices reboot']);
    expect(pick('time:<2026-11-02')).toEqual(['config set']);
  });

  it('refuses what has no meaning for the ledger, naming what does', () => {
    expect(() => ledgerFilter('stale')).toThrow('history --where takes NAME:VALUE conditions, not stale');
    expect(() => ledgerFilter('fleet:North')).toThrow('history --where has no fleet:');
  });
});
