// Issue 34, must-show 3 (the service part), 4 and 6: a run's journal names the service and client it went to;
// --resume against another is refused naming both, before anything is sent, and `status` lists a service's runs
// only, the others apart by service (the sandbox and the second service double, one config folder); the resume line printed on a brake, pasted into bash in a new environment that
// knows nothing but the config folder, resumes a --sandbox run with a --journal whose path needs quoting.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { BIN, startHarness, type SandboxHarness } from './harness.js';
import { fleetctlOnPath } from './examples.js';
import { report, useSecondHarness, type SecondHarness } from '../support/second-service/harness.js';
import { tempDir } from '../support/temp-dir.js';

const parse = (stdout: string) => stdout.trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
const runIdOf = (stderr: string): string => /^Run (\S+):/m.exec(stderr)![1]!;

describe('--resume goes on only against the service and client of the run', { timeout: 60_000 }, () => {
  let second: SecondHarness;
  let sandbox: SandboxHarness;
  useSecondHarness((started) => (second = started));
  beforeAll(async () => {
    sandbox = await startHarness({ devices: 20 });
  }, 60_000);
  afterAll(async () => {
    await sandbox?.close();
  });

  it('a run on the second service is not resumed against the sandbox (exit 2, both named, nothing sent); against its own it is', async () => {
    second.svc.inject({ status: 503, times: 1, pathPrefix: '/v1/devices/TLM-00002/commands' });
    const args = ['--max-retries', '0', 'devices', 'reboot', 'TLM-00001', 'TLM-00002', '--concurrency', '1', '--yes', '-o', 'ndjson'];
    const first = await second.cli(args);
    expect(first.code, report(args, first)).toBe(10);
    const runId = runIdOf(first.stderr);
    const header = JSON.parse(readFileSync(path.join(second.configDir, 'runs', `${runId}.ndjson`), 'utf8').split('\n')[0]!) as Record<string, unknown>;
    expect(header.service).toEqual({ base_url: second.svc.baseUrl, client_id: second.svc.clients.admin.client_id });

    const sandboxCommands = async () => ((await (await fetch(`${sandbox.sandbox.baseUrl}/_sandbox/commands`)).json()) as unknown[]).length;
    const before = await sandboxCommands();
    const resume = ['devices', 'reboot', '--resume', runId, '--yes'];
    const elsewhere = await sandbox.cli(resume, { env: { FLEETCTL_CONFIG_DIR: second.configDir } });
    expect(elsewhere.code, report(resume, elsewhere)).toBe(2);
    expect(elsewhere.stderr).toContain(
      `Error: run ${runId} was sent to ${second.svc.baseUrl} (client ${second.svc.clients.admin.client_id}), not to ${sandbox.sandbox.baseUrl} (client sandbox-admin): it is not resumed elsewhere`,
    );
    expect(await sandboxCommands()).toBe(before);

    const home = await second.cli([...resume, '-o', 'ndjson']);
    expect(home.code, report(resume, home)).toBe(0);
    expect(parse(home.stdout).map((r) => [r.hardware_id, r.status])).toEqual([['TLM-00002', 'accepted']]);
  });

  it("status shows the runs sent to the profile's service; those sent elsewhere apart, named by their service, never mixed", async () => {
    const sent = await sandbox.cli(['devices', 'reboot', 'HW-000003', 'HW-000005', '--yes', '-o', 'json'], { env: { FLEETCTL_CONFIG_DIR: second.configDir } });
    expect(sent.code, sent.stderr).toBe(0);
    const sandboxRun = runIdOf(sent.stderr);
    const there = await second.cli(['devices', 'wake-up', 'TLM-00001', 'TLM-00002', '--yes', '-o', 'json']);
    // a device of the double that cannot wake up is an answer (exit 10); the run is what counts here
    expect([0, 10], there.stderr).toContain(there.code);
    const secondRun = runIdOf(there.stderr);
    type Commands = { runs: { run_id: string }[]; elsewhere: { service: { base_url: string } | null; runs: { run_id: string }[] }[] };
    const commandsOf = async (r: { code: number | null; stdout: string; stderr: string }) => {
      expect(r.code, r.stderr).toBe(0);
      return (JSON.parse(r.stdout) as { commands: Commands }).commands;
    };
    const onSecond = await commandsOf(await second.cli(['status', '-o', 'json']));
    expect(onSecond.runs.map((r) => r.run_id)).toContain(secondRun);
    expect(onSecond.runs.map((r) => r.run_id)).not.toContain(sandboxRun);
    expect(onSecond.elsewhere.map((g) => [g.service?.base_url, g.runs.map((r) => r.run_id)])).toEqual([[sandbox.sandbox.baseUrl, [sandboxRun]]]);
    const onSandbox = await commandsOf(await sandbox.cli(['status', '-o', 'json'], { env: { FLEETCTL_CONFIG_DIR: second.configDir } }));
    expect(onSandbox.runs.map((r) => r.run_id)).toEqual([sandboxRun]);
    expect(onSandbox.elsewhere.map((g) => g.service?.base_url)).toEqual([second.svc.baseUrl]);
    // the summary a person reads: the other service counted apart, by name
    const table = await sandbox.cli(['status'], { env: { FLEETCTL_CONFIG_DIR: second.configDir } });
    expect(table.stdout).toMatch(/^Commands {6}1 run to this service from this machine since /m);
    expect(table.stdout).toContain(`  apart: ${onSecond.runs.length} run${onSecond.runs.length === 1 ? '' : 's'} to ${second.svc.baseUrl} (client ${second.svc.clients.admin.client_id})`);
  });
});

describe('the resume line, pasted into a new shell', { timeout: 90_000 }, () => {
  it('after a --sandbox run stopped by its brake: complete (--sandbox, the --journal quoted), it resumes the run', () => {
    const dir = tempDir('fleetctl-paste-');
    const configDir = path.join(dir, 'config');
    // a fleetctl on PATH, as an installed one is
    const bin = fleetctlOnPath();
    onTestFinished(() => rmSync(bin, { recursive: true, force: true }));
    const ids = path.join(dir, 'ids.txt');
    // HW-000008 cannot reboot: the canary fails and the brake stops the run
    writeFileSync(ids, 'HW-000008\nHW-000014\nHW-000015\n');
    const journal = path.join(dir, "the run's journal $1.ndjson");
    // nothing but the config folder: no base URL, profile or credentials in the environment
    const env = { PATH: `${bin}:${process.env.PATH ?? ''}`, HOME: os.tmpdir(), CI: 'true', NO_COLOR: '1', FLEETCTL_KEYCHAIN: 'off', FLEETCTL_CONFIG_DIR: configDir };
    const args = ['--sandbox', 'devices', 'reboot', '--from-file', ids, '--canary', '1', '--abort-if-failed', '100%', '--journal', journal, '--yes', '-o', 'ndjson'];
    const first = spawnSync(process.execPath, [BIN, ...args], { env, encoding: 'utf8', timeout: 60_000 });
    expect(first.status, first.stderr).toBe(11);
    const runId = runIdOf(first.stderr);
    const line = /resume with: (.+)$/m.exec(first.stderr)![1]!;
    expect(line).toBe(`fleetctl --sandbox devices reboot --resume ${runId} --journal '${journal.replace("'", `'\\''`)}' --yes`);

    const pasted = spawnSync('bash', ['-c', line], { env, encoding: 'utf8', timeout: 60_000, cwd: os.tmpdir() });
    // the canary's device cannot reboot (exit 10); the two the brake held back are sent now
    expect(pasted.status, pasted.stderr).toBe(10);
    expect(pasted.stderr).toContain(`reboot of 2 devices (1 already done); journal ${journal}`);
    const results = readFileSync(journal, 'utf8').trim().split('\n').slice(1).map((l) => JSON.parse(l) as Record<string, unknown>).filter((r) => r.type === 'result');
    expect(results.map((r) => [r.hardware_id, r.status]).sort()).toEqual([['HW-000008', 'capability_missing'], ['HW-000014', 'accepted'], ['HW-000015', 'accepted']]);
  });
});

