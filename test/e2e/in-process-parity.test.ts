// Most end-to-end commands run in-process (harness.ts): main() with its own streams, not the built CLI in a
// process of its own. That only holds if both give the same answer. The same commands, both ways, against one
// sandbox: the same exit code and the same bytes on stdout and stderr, for data, a table at a pipe's width,
// stdin, and each kind of failure.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type SandboxHarness } from './harness.js';

let h: SandboxHarness;
beforeAll(async () => {
  h = await startHarness();
  // the token is fetched and cached once, before the commands below race for it
  expect((await h.cli(['fleets', 'list', '--limit', '1'])).code).toBe(0);
}, 60_000);
afterAll(() => h?.close());

const CASES: { name: string; args: string[]; input?: string; client?: string }[] = [
  { name: 'a page of records as JSON', args: ['devices', 'list', '--limit', '3', '-o', 'json'] },
  { name: 'a table at a pipe (80 columns)', args: ['devices', 'list', '--limit', '3'] },
  { name: 'CSV with chosen columns', args: ['fleets', 'list', '--limit', '2', '-o', 'csv', '--columns', 'id,name'] },
  { name: 'jq over a page', args: ['devices', 'list', '--limit', '5', '--jq', '.hardware_id'] },
  { name: 'ids read from stdin', args: ['devices', 'reboot', '--from-file', '-', '--dry-run', '--idempotency-key', 'parity', '-o', 'ndjson'], input: 'HW-000001\nHW-000002\n' },
  { name: 'a usage error (exit 2)', args: ['fleets', 'get', 'not-a-uuid'] },
  { name: 'an unknown flag (exit 2)', args: ['devices', 'list', '--limt', '3'] },
  { name: 'not found (exit 5)', args: ['fleets', 'get', '00000000-0000-4000-8000-000000000000'] },
  { name: 'a scope the client lacks (exit 4)', args: ['devices', 'reboot', 'HW-000001', '--yes'], client: 'sandbox-reader' },
  { name: 'help', args: ['devices', 'reboot', '--help'] },
];

describe('a command in-process answers as the built CLI in a process does', () => {
  it.each(CASES.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    const opts = { input: c.input, client: c.client };
    const [inProcess, asProcess] = [await h.cli(c.args, opts), await h.cli(c.args, { ...opts, process: true })];
    expect(asProcess.stdout.length + asProcess.stderr.length).toBeGreaterThan(0);
    expect(inProcess).toEqual(asProcess);
  });
});
