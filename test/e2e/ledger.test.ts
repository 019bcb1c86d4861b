// The audit ledger end to end (issue 38, point 2): a reboot, one device then a bulk run, read back by `fleetctl
// history` as a table, JSON and NDJSON; a dry run writes nothing; secrets never reach it; a ledger that cannot be
// written is one warning and the command's own exit code; FLEETCTL_LEDGER and ledger_file send it elsewhere.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { startHarness, type SandboxHarness } from './harness.js';
import { tempDir } from '../support/temp-dir.js';
import type { LedgerEntry } from '../../src/ledger/entry.js';

let h: SandboxHarness;
let rebootable: string[];

beforeAll(async () => {
  h = await startHarness();
  const list = await h.cli(['devices', 'list', '--all', '-o', 'json']);
  rebootable = (JSON.parse(list.stdout) as { hardware_id: string; capabilities: string[] }[]).filter((d) => d.capabilities.includes('reboot')).map((d) => d.hardware_id);
}, 60_000);
afterAll(() => h.close());

/** A config directory of the test's own: its ledger holds this test's lines only. */
function ownConfig(): { dir: string; env: Record<string, string>; ledger: () => LedgerEntry[] } {
  const dir = tempDir('fleetctl-ledger-e2e-');
  const file = path.join(dir, 'ledger.ndjson');
  const ledger = () => (existsSync(file) ? readFileSync(file, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as LedgerEntry) : []);
  return { dir, env: { FLEETCTL_CONFIG_DIR: dir }, ledger };
}

describe('the ledger of a reboot', () => {
  it('one device, then a bulk run: each a line with its service, client, key, run id and outcomes; history shows them', async () => {
    const { env, ledger } = ownConfig();
    const [one, two, three] = rebootable;
    const single = await h.cli(['devices', 'reboot', one!, '--yes', '--idempotency-key', 'ledger-1'], { env });
    expect(single.code, single.stderr).toBe(0);
    const bulk = await h.cli(['devices', 'reboot', two!, three!, '--yes', '--idempotency-key', 'ledger-2', '-o', 'json'], { env });
    expect(bulk.code, bulk.stderr).toBe(0);
    const [first, second] = ledger();
    expect(first).toMatchObject({
      v: 1, profile: 'default', base_url: h.sandbox.baseUrl, client_id: 'sandbox-admin', command: 'devices reboot', run_id: null,
      argv: ['devices', 'reboot', one, '--yes', '--idempotency-key', 'ledger-1'],
      targets: [{ target: one, outcome: 'accepted', idempotency_key: 'ledger-1', http_status: 202 }], outcomes: { accepted: 1 },
    });
    const runId = /run (\d{8}T\d{6}Z-[0-9a-f]+)/.exec(bulk.stderr)![1]!;
    expect(second).toMatchObject({ command: 'devices reboot', run_id: runId, outcomes: { accepted: 2 } });
    expect(second!.targets.map((t) => [t.target, t.idempotency_key])).toEqual(expect.arrayContaining([[two, `ledger-2:${two}`], [three, `ledger-2:${three}`]]));

    const table = await h.cli(['history'], { env });
    expect(table.code).toBe(0);
    const rows = table.stdout.trim().split('\n');
    expect(rows[0]).toBe('run_id\ttime\taction\toutcomes');
    expect(rows.slice(1).map((row) => row.split('\t').filter((_, i) => i !== 1))).toEqual([['', 'devices reboot', '1 accepted'], [runId, 'devices reboot', '2 accepted']]);
    const json = await h.cli(['history', '--since', '1h', '--where', `run:${runId}`, '-o', 'json'], { env });
    expect(JSON.parse(json.stdout)).toEqual([second]);
    const ndjson = await h.cli(['history', '--where', `target:${one}`, '-o', 'ndjson'], { env });
    expect(ndjson.stdout).toBe(`${JSON.stringify(first)}\n`);
    const none = await h.cli(['history', '--since', '2099-01-01'], { env });
    // a piped table keeps its header, as every list does
    expect([none.code, none.stdout]).toEqual([0, 'run_id\ttime\taction\toutcomes\n']);
    expect(none.stderr).toContain('No changes recorded that match');
  });

  it('a failed reboot is recorded as failed, with its status and code, and the command fails as before', async () => {
    const { env, ledger } = ownConfig();
    const missing = await h.cli(['devices', 'reboot', 'HW-NOPE-404', '--yes'], { env });
    expect(missing.code).toBe(5);
    expect(ledger()).toMatchObject([{ command: 'devices reboot', targets: [{ target: 'HW-NOPE-404', outcome: 'not_found', http_status: 404, code: 'resource.not_found' }] }]);
  });

  it('--dry-run writes nothing, one device or many', async () => {
    const { dir, env } = ownConfig();
    expect((await h.cli(['devices', 'reboot', rebootable[0]!, '--dry-run'], { env })).code).toBe(0);
    expect((await h.cli(['devices', 'reboot', rebootable[0]!, rebootable[1]!, '--dry-run'], { env })).code).toBe(0);
    expect(existsSync(path.join(dir, 'ledger.ndjson'))).toBe(false);
  });
});

describe('what the ledger never holds, and where it goes', () => {
  it('no secret: a client secret set on the line or on stdin, a webhook key regenerated', async () => {
    const { dir, env, ledger } = ownConfig();
    const secret = 'ledger-test-secret-value-0123456789';
    expect((await h.cli(['--profile', 'other', 'config', 'set', 'client_secret', secret], { env })).code).toBe(0);
    expect((await h.cli(['config', 'set', 'client_secret'], { env, input: `${secret}-stdin` })).code).toBe(0);
    const created = await h.cli(['webhook-config', 'create', '--url', 'https://hooks.example.com/fleet', '--topics', 'events'], { env });
    const rotated = await h.cli(['webhook-config', 'regenerate-key', '--yes'], { env });
    expect([created.code, rotated.code], created.stderr + rotated.stderr).toEqual([0, 0]);
    const key = rotated.stdout.trim();
    const text = readFileSync(path.join(dir, 'ledger.ndjson'), 'utf8');
    expect(text).not.toContain(secret);
    expect(text).not.toContain(key);
    expect(ledger().map((e) => [e.command, e.targets.map((t) => `${t.target} ${t.outcome}`)])).toEqual([
      ['config set', ['profile other client_secret set']],
      ['config set', ['profile default client_secret set']],
      ['webhook-config create', [expect.stringMatching(/^organization \S+ created$/)]],
      ['webhook-config regenerate-key', [expect.stringMatching(/^organization \S+ key_regenerated$/)]],
    ]);
    expect(ledger()[0]!.argv).toEqual(['--profile', 'other', 'config', 'set', 'client_secret', '[REDACTED]']);
  });

  it('FLEETCTL_LEDGER, then the profile\'s ledger_file, name the file; history reads the same one', async () => {
    const { dir, env } = ownConfig();
    const shared = path.join(tempDir('fleetctl-ledger-shared-'), 'audit', 'fleet.ndjson');
    const elsewhere = { ...env, FLEETCTL_LEDGER: shared };
    expect((await h.cli(['devices', 'reboot', rebootable[0]!, '--yes'], { env: elsewhere })).code).toBe(0);
    expect(readFileSync(shared, 'utf8')).toContain('"devices reboot"');
    expect(JSON.parse((await h.cli(['history', '-o', 'json'], { env: elsewhere })).stdout)).toHaveLength(1);
    const byKey = path.join(dir, 'by-key.ndjson');
    expect((await h.cli(['config', 'set', 'ledger_file', byKey], { env })).code).toBe(0);
    expect((await h.cli(['config', 'unset', 'organization_id'], { env })).code).toBe(0);
    // the line of `config set ledger_file` itself went to the file it named
    expect(readFileSync(byKey, 'utf8').trim().split('\n').map((line) => (JSON.parse(line) as LedgerEntry).command)).toEqual(['config set', 'config unset']);
    expect(existsSync(path.join(dir, 'ledger.ndjson'))).toBe(false);
  });

  it('a change of the sandbox itself: a fault rule added, then cleared', async () => {
    const { env, ledger } = ownConfig();
    const added = await h.cli(['sandbox', 'fault', 'add', '--operation-id', 'rebootDevice', '--hardware-id', 'HW-NOPE-1', '--status', '503', '--times', '1'], { env });
    const cleared = await h.cli(['sandbox', 'fault', 'clear'], { env });
    expect([added.code, cleared.code], added.stderr + cleared.stderr).toEqual([0, 0]);
    expect(ledger().map((e) => [e.command, e.targets.map((t) => `${t.target} ${t.outcome}`)])).toEqual([
      ['sandbox addFault', ['POST /_sandbox/faults answered']],
      ['sandbox clearFaults', ['DELETE /_sandbox/faults answered']],
    ]);
  });

  it('a ledger that cannot be written: one warning line, the command done and its exit code unchanged', async () => {
    const { dir, env } = ownConfig();
    // a directory is no file to append to (EISDIR), whoever runs the test
    const result = await h.cli(['devices', 'reboot', rebootable[0]!, '--yes', '-o', 'json'], { env: { ...env, FLEETCTL_LEDGER: dir } });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ hardware_id: rebootable[0], status: 'accepted' });
    const warnings = result.stderr.split('\n').filter((line) => line.startsWith('Warning:'));
    expect(warnings).toEqual([`Warning: the audit ledger ${dir} could not be written (EISDIR); the command itself is not affected`]);
  });
});
