// A service that stops answering mid-run: the sandbox process is stopped (SIGSTOP) for a few seconds, then goes on
// (SIGCONT), as a stalled service or a paused VM would. Connections wait, nothing is refused: the requests caught in
// the stall time out (--timeout 2) and, carrying an Idempotency-Key, are sent again; a read (a GET) is retried the
// same way. The run finishes with every device executed once by the sandbox's command log, none reported failed,
// and the rest of the run goes at the service's limit again (the pacer found it back), not at a crawl.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCliSandbox, type CliSandbox } from './cli-sandbox.js';
import { executionsOf, spawnFleetctl, type CommandLogEntry } from './crash-trial.js';
import { tempDir } from '../support/temp-dir.js';

const RATE_LIMIT = 20;
const STALL_MS = 3_000;

describe('the service stopped (SIGSTOP) mid-run, then continued', () => {
  let sandbox: CliSandbox;
  beforeAll(async () => {
    sandbox = await startCliSandbox(['--rate-limit', String(RATE_LIMIT)]);
  }, 60_000);
  afterAll(async () => {
    process.kill(sandbox.pid, 'SIGCONT');
    await sandbox?.stop();
  });

  const envOf = (configDir: string) => {
    const admin = sandbox.facts.clients.find((client) => client.client_id === 'sandbox-admin')!;
    return {
      FLEETCTL_BASE_URL: sandbox.facts.base_url, FLEETCTL_AUTH_URL: sandbox.facts.auth_url, FLEETCTL_CLIENT_ID: admin.client_id,
      FLEETCTL_CLIENT_SECRET: admin.client_secret, FLEETCTL_CONFIG_DIR: configDir,
    };
  };

  /** The command, with the sandbox stopped for STALL_MS once `stallWhen` holds of what it printed so far. */
  function runStalled(args: string[], env: Record<string, string>, stallWhen: (stdout: string) => boolean) {
    return new Promise<{ code: number | null; stdout: string; stderr: string; afterStallMs: number }>((resolve, reject) => {
      const child = spawnFleetctl(args, env, 'pipe');
      let stdout = '';
      let stderr = '';
      let continued = 0;
      let stalled = false;
      child.stdout!.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
        if (stalled || !stallWhen(stdout)) return;
        stalled = true;
        process.kill(sandbox.pid, 'SIGSTOP');
        setTimeout(() => {
          process.kill(sandbox.pid, 'SIGCONT');
          continued = Date.now();
        }, STALL_MS);
      });
      child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
      child.on('error', reject);
      child.on('close', (code) => {
        clearTimeout(timer);
        resolve({ code, stdout, stderr, afterStallMs: continued ? Date.now() - continued : -1 });
      });
    });
  }

  it('a bulk reboot: every device executed once, none failed, the rest of the run at the limit again', async () => {
    const configDir = tempDir('fleetctl-stopped-');
    const organization = sandbox.facts.clients.find((client) => client.client_id === 'sandbox-admin')!.organization_id;
    const key = 'stopped-service';
    const args = ['devices', 'reboot', '--organization-id', organization, '--idempotency-key', key, '--yes', '--timeout', '2', '-o', 'ndjson'];
    // stopped once a tenth of the devices are done
    const run = await runStalled(args, envOf(configDir), (stdout) => stdout.split('\n').length > 10);
    expect(run.afterStallMs, run.stderr).toBeGreaterThan(0);
    const results = run.stdout.split('\n').filter(Boolean).map((line) => JSON.parse(line) as { hardware_id: string; status: string });
    const sent = results.filter((result) => result.status === 'accepted' || result.status === 'replayed');
    expect(results.filter((result) => result.status === 'failed'), run.stderr).toEqual([]);
    expect(run.code, run.stderr).toBe(0);
    expect(sent.length).toBeGreaterThan(40);

    const log = await sandbox.json<CommandLogEntry[]>('/_sandbox/commands');
    const executed = executionsOf(log, key);
    expect([...executed.values()].filter((n) => n !== 1)).toEqual([]);
    expect([...executed.keys()].sort()).toEqual(sent.map((result) => result.hardware_id).sort());

    // what was left after the stall (at most every device) at RATE_LIMIT a second is its floor; a pacer that kept
    // its stalled estimate would send one a second (tens of seconds). Generous for a loaded machine: 3x, plus 3 s.
    const floorMs = (sent.length / RATE_LIMIT) * 1000;
    expect(run.afterStallMs, `${sent.length} devices, ${run.afterStallMs} ms after the stall`).toBeLessThan(floorMs * 3 + 3_000);
  }, 180_000);

  it('a list of every device (GETs): the stall is ridden out, every page read once', async () => {
    const configDir = tempDir('fleetctl-stopped-');
    const whole = await sandbox.cli('sandbox-admin', ['devices', 'list', '--all', '--limit', '5', '-o', 'ndjson'], { env: { FLEETCTL_CONFIG_DIR: configDir } });
    expect(whole.code, whole.stderr).toBe(0);
    const run = await runStalled(['devices', 'list', '--all', '--limit', '5', '--timeout', '2', '-o', 'ndjson'], envOf(configDir), (stdout) => stdout.split('\n').length > 20);
    expect(run.afterStallMs, run.stderr).toBeGreaterThan(0);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe(whole.stdout);
  }, 120_000);
});
