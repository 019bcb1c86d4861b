// spec: "Every endpoint can return 401, 403, 429, 500 and 503." The 429 and 503 (or a dropped connection) of
// every named command, end to end: the documented exit code (8, 9), nothing on stdout, one clear error and no
// stack trace on stderr. The sandbox fails or limits before it routes, so ids need not exist.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type SandboxHarness } from './harness.js';

const ID = '00000000-0000-4000-8000-000000000000';
const EVENT = 'SFctMDAwMDAxfjAwMDAwMDAwLTAwMDAtNDAwMC04MDAwLTAwMDAwMDAwMDAwMA';

// one named command per endpoint of the spec's tables (and the groups the contract adds)
const COMMANDS: string[][] = [
  ['devices', 'list'],
  ['devices', 'get', ID],
  ['devices', 'assign', ID, '--vehicle-id', ID],
  ['devices', 'unassign', ID, '--yes'],
  ['devices', 'reboot', 'HW-000001', '--yes'],
  ['devices', 'wake-up', 'HW-000001', '--yes'],
  ['devices', 'events', 'HW-000001', '--since', '7d'],
  ['devices', 'last-reported', 'HW-000001'],
  ['devices', 'last-position', 'HW-000001'],
  ['devices', 'media', 'HW-000001'],
  ['drivers', 'list'],
  ['drivers', 'get', ID],
  ['drivers', 'create', '--fleet-id', ID, '--first-name', 'Ada', '--last-name', 'Lovelace'],
  ['drivers', 'update', ID, '--status', 'inactive'],
  ['events', 'search', '--hardware-id', 'HW-000001', '--since', '7d'],
  ['events', 'get', EVENT],
  ['events', 'media', EVENT],
  ['fleets', 'list'],
  ['fleets', 'get', ID],
  ['vehicles', 'list'],
  ['journeys', 'list', '--hardware-id', 'HW-000001', '--since', '7d'],
  ['organizations', 'list'],
  ['webhook-config', 'get'],
  ['webhook-config', 'create', '--url', 'https://hooks.example.com/fleet', '--topics', 'events'],
  ['webhook-config', 'enable'],
  ['webhook-config', 'regenerate-key', '--yes'],
  ['webhook-config', 'topics', 'set', 'alarms', '--url', 'https://hooks.example.com/alarms'],
  ['webhook-config', 'delete', '--yes'],
  ['api', 'GET', '/v1/fleets'],
];

function expectCleanFailure(result: { code: number | null; stdout: string; stderr: string }, code: number, args: string[]): void {
  const report = `fleetctl ${args.join(' ')}\nexit ${result.code}\nstdout: ${result.stdout}\nstderr: ${result.stderr}`;
  expect(result.code, report).toBe(code);
  expect(result.stdout, report).toBe('');
  expect(result.stderr, report).toMatch(/^Error: /m);
  expect(result.stderr, report).not.toMatch(/^\s+at /m);
}

// The commands run side by side (vitest's maxConcurrency, 5): each is a CLI process of its own against a sandbox
// whose every answer is the same failure, so no command changes what another meets.
describe.concurrent('every named command under 429 and 503', { timeout: 120_000 }, () => {
  let failing: SandboxHarness;
  let limited: SandboxHarness;

  beforeAll(async () => {
    // every API request fails with 503 or a dropped connection (the token endpoint still answers)
    failing = await startHarness({ faultRate: 1 });
    // one request per 100 s, on a sandbox clock that never moves: the first one below takes it, every later
    // one is 429 with a long Retry-After, however long the commands take
    const frozen = new Date();
    limited = await startHarness({ rateLimit: 0.01, now: () => frozen });
    expect((await limited.cli(['fleets', 'list', '--limit', '1'])).code).toBe(0);
  }, 60_000);

  afterAll(async () => {
    await failing?.close();
    await limited?.close();
  });

  it.each(COMMANDS.map((args) => [args.join(' '), args]))('%s: 503 or a dropped connection exits 9', async (_name, args) => {
    const result = await failing.cli([...(args as string[]), '--max-retries', '0']);
    expectCleanFailure(result, 9, args as string[]);
  });

  it.each(COMMANDS.map((args) => [args.join(' '), args]))('%s: 429 exits 8', async (_name, args) => {
    const result = await limited.cli([...(args as string[]), '--max-retries', '0']);
    expectCleanFailure(result, 8, args as string[]);
    expect(result.stderr).toContain('rate_limit.exceeded, HTTP 429');
  });
});
