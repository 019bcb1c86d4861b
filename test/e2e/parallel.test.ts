// Many fleetctl at once with one home directory, as xargs -P and CI matrix jobs run it (issue 28): every process
// is started before any ends, and afterwards nothing is lost, nothing executed twice, every exit code documented.
//
// How many: enough that they overlap on any machine, no more. A process takes about 0.3 s of CPU before it first
// touches the store, so on 2 cores a dozen started at once are all waiting for the same lock together; twice
// as many proved nothing more and cost half this file's time (about 110 processes, 33 s in CI).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { runCli, startHarness, type CliResult, type SandboxHarness } from './harness.js';
import { tempDir as newTempDir } from '../support/temp-dir.js';
import { loadState } from '../../src/sandbox/state-file.js';

let h: SandboxHarness;
let rebootable: string[];

beforeAll(async () => {
  // dozens of processes on a loaded CI machine: a request may take long to arrive whole, and is still answered
  h = await startHarness({ requestTimeoutMs: 120_000 });
  // the embedded sandbox is built from the same default seed: the same devices
  const list = await h.cli(['devices', 'list', '--all', '-o', 'json']);
  rebootable = (JSON.parse(list.stdout) as { hardware_id: string; capabilities: string[] }[]).filter((d) => d.capabilities.includes('reboot')).map((d) => d.hardware_id);
}, 60_000);
afterAll(() => h.close());

const tempDir = (name: string) => newTempDir(`fleetctl-parallel-${name}-`);
// processes of their own: what is shared between them is only the home directory, as with xargs -P
const LONG = { timeoutMs: 170_000, process: true };
/** Config writers started at once (with four token fetchers beside them). */
const WRITERS = 12;
/** Completions and lists started at once, half each. */
const MIXED = 20;

/** No lock file, breaker or temporary file is left in the folder (or below it). */
function leftovers(directory: string): string[] {
  return readdirSync(directory, { recursive: true, encoding: 'utf8' }).filter((name) => /\.(lock|break|tmp)$/.test(name));
}

function expectClean(result: CliResult): void {
  expect(result.stderr).not.toMatch(/Error|Warning|at .+:\d+:\d+/);
}

describe('many processes at once', () => {
  it('config writers mixed with token-fetching commands: every setting and the tokens are kept', async () => {
    const configDir = tempDir('config');
    const env = { ...h.envFor(), FLEETCTL_CONFIG_DIR: configDir };
    const writers = Array.from({ length: WRITERS }, (_, i) => h.cli(['--profile', `p${i}`, 'config', 'set', 'base_url', `https://p${i}.example.com`], { env, ...LONG }));
    // each of these fetches a token (the cache is empty) and caches it: a change of the store too
    const fetchers = Array.from({ length: 4 }, () => h.cli(['devices', 'list', '--limit', '1', '--timeout', '120', '-o', 'json'], { env, ...LONG }));
    const [written, fetched] = await Promise.all([Promise.all(writers), Promise.all(fetchers)]);
    written.forEach((result, i) => {
      expect(result.code).toBe(0);
      expect(result.stderr).toBe(`Set base_url for the new profile "p${i}".\n`);
    });
    for (const result of fetched) {
      expect(result.code).toBe(0);
      expectClean(result);
    }
    const saved = JSON.parse(readFileSync(path.join(configDir, 'config.json'), 'utf8')) as { profiles: Record<string, { base_url: string }>; tokens: object };
    for (let i = 0; i < WRITERS; i++) expect(saved.profiles[`p${i}`]).toEqual({ base_url: `https://p${i}.example.com` });
    expect(Object.keys(saved.tokens).length).toBeGreaterThanOrEqual(1);
    // each writer's line in the audit ledger, whole, once (the token fetches change nothing of the service's)
    const ledger = readFileSync(path.join(configDir, 'ledger.ndjson'), 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { command: string; targets: { target: string }[] });
    expect(ledger.map((entry) => `${entry.command}: ${entry.targets[0]!.target}`).sort()).toEqual(Array.from({ length: WRITERS }, (_, i) => `config set: profile p${i} base_url`).sort());
    expect(leftovers(configDir)).toEqual([]);
  }, 180_000);

  it('eight --sandbox writers, then each replayed: one world, every replay answers the original, nothing executed twice', async () => {
    const configDir = tempDir('sandbox');
    const env = { FLEETCTL_CONFIG_DIR: configDir };
    const devices = rebootable.slice(0, 8);
    const reboot = (id: string, i: number) => runCli(['--sandbox', 'devices', 'reboot', id, '--yes', '--idempotency-key', `par-${i}`, '-o', 'json'], { env, ...LONG });
    const originals = await Promise.all(devices.map(reboot));
    const replays = await Promise.all(devices.map(reboot));
    devices.forEach((id, i) => {
      expect(originals[i]!.code).toBe(0);
      expect(replays[i]!.code).toBe(0);
      expect(JSON.parse(originals[i]!.stdout)).toMatchObject({ hardware_id: id, idempotency_key: `par-${i}`, status: 'accepted' });
      expect(JSON.parse(replays[i]!.stdout)).toEqual(JSON.parse(originals[i]!.stdout));
      expect(replays[i]!.stderr).toContain(`Reboot of ${id} replayed`);
    });
    // the state file and its log of changes, as the next sandbox reads them
    const { state } = (await loadState(path.join(configDir, 'sandbox', 'state.json')))!;
    expect(state.commands.log.map((entry) => entry.idempotency_key).sort()).toEqual(devices.map((_, i) => `par-${i}`).sort());
    expect(leftovers(configDir)).toEqual([]);
  }, 360_000);

});

describe('many processes at once, on one run and one cache', () => {
  it('two --resume of one run at once: the second is refused naming the run and the process, nothing is sent twice', async () => {
    const slow = await startHarness({ latencyMs: 700 });
    try {
      const targets = rebootable.slice(20, 32);
      expect(targets).toHaveLength(12);
      const runId = 'par-resume-run';
      const journal = path.join(slow.configDir, 'runs', `${runId}.ndjson`);
      mkdirSync(path.dirname(journal), { recursive: true });
      const header = { type: 'run', version: 1, run_id: runId, command: 'reboot', key_base: 'par-resume', targets, created_at: new Date().toISOString() };
      writeFileSync(journal, `${JSON.stringify(header)}\n`, { mode: 0o600 });
      // one at a time, each answer 0.7 s late: the run lasts over 8 s, and the second, started with it, reaches the
      // lock well within that even when a loaded machine starts one process seconds after the other
      const resume = () => slow.cli(['devices', 'reboot', '--resume', runId, '--yes', '--concurrency', '1', '-o', 'json'], LONG);
      const results = await Promise.all([resume(), resume()]);
      expect(results.map((r) => r.code).sort()).toEqual([0, 6]);
      const refused = results.find((r) => r.code === 6)!;
      expect(refused.stdout).toBe('');
      expect(refused.stderr).toMatch(new RegExp(`^Error: run ${runId} is in use by process \\d+ \\(a bulk run, since [^)]+\\): could not lock ${journal}\\.lock\\n`));
      const done = results.find((r) => r.code === 0)!;
      expect((JSON.parse(done.stdout) as { status: string }[]).map((r) => r.status)).toEqual(targets.map(() => 'accepted'));
      const sent = (await (await fetch(`${slow.sandbox.baseUrl}/_sandbox/requests?limit=1000`)).json()) as { data?: unknown[] } | { method: string; path: string }[];
      const requests = (Array.isArray(sent) ? sent : (sent.data as { method: string; path: string }[])).filter((r) => r.method === 'POST' && r.path.endsWith('/commands/reboot'));
      expect(requests.map((r) => r.path).sort()).toEqual(targets.map((id) => `/v1/devices/${id}/commands/reboot`).sort());
      expect(leftovers(slow.configDir)).toEqual([]);
    } finally {
      await slow.close();
    }
  }, 180_000);

  it(`${MIXED} completions and commands at once leave no corrupt cache file and no error`, async () => {
    const configDir = tempDir('caches');
    const env = { ...h.envFor(), FLEETCTL_CONFIG_DIR: configDir, XDG_CACHE_HOME: tempDir('compile-cache') };
    // a token cached first: the lookups then make one request each, and more of them finish within their budget
    expect((await h.cli(['devices', 'list', '--limit', '1'], { env })).code).toBe(0);
    const runs = Array.from({ length: MIXED }, (_, i) =>
      i % 2 === 0 ? h.cli(['__complete', 'hardware-id', '--', 'devices', 'get', 'HW-00'], { env, ...LONG }) : h.cli(['devices', 'list', '--limit', '2', '--timeout', '120', '-o', 'json'], { env, ...LONG }),
    );
    const results = await Promise.all(runs);
    results.forEach((result, i) => {
      // a list says on stderr how to get more: that, and nothing else
      expect({ code: result.code, stderr: result.stderr.replace(/^More results: add --cursor \S+ for the next page, or --all for every page\.\n$/, '') }).toEqual({ code: 0, stderr: '' });
      // a lookup past its time budget (1 s, easily spent on a loaded machine) prints nothing, by design
      if (i % 2 === 0) expect(result.stdout).toMatch(/^(HW-00\d+\t[^\n]*\n)*$/);
      else expect(JSON.parse(result.stdout)).toHaveLength(2);
    });
    const files = readdirSync(configDir, { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith('.json'));
    if (results.some((result, i) => i % 2 === 0 && result.stdout !== '')) expect(files.some((name) => name.startsWith('completion-cache'))).toBe(true);
    for (const name of files) expect(() => JSON.parse(readFileSync(path.join(configDir, name), 'utf8'))).not.toThrow();
    expect(leftovers(configDir)).toEqual([]);
    // the caches written meanwhile serve the next run as they are
    const after = await h.cli(['__complete', 'hardware-id', '--', 'devices', 'get', 'HW-00'], { env });
    expect(after).toMatchObject({ code: 0, stderr: '' });
  }, 180_000);
});
