// Issue 35, point 2: a journal that survives a torn write. A run whose last journal line was cut short (a crash or a
// full disk mid-write) resumes: the fragment is dropped, its device resolved by its idempotency key (a replay, not a
// second execution), a second --resume reads the journal whole, and `status` counts it the same way. A 0-byte or
// header-only journal left by a killed start does not block reusing --journal PATH; one whose run began sending does.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { startHarness, type SandboxHarness } from './harness.js';
import { tempDir } from '../support/temp-dir.js';

let h: SandboxHarness;

beforeAll(async () => {
  h = await startHarness({ devices: 12 });
}, 60_000);

afterAll(async () => {
  await h?.close();
});

async function rebootable(count: number): Promise<string[]> {
  const r = await h.cli(['devices', 'list', '--all', '-o', 'json']);
  expect(r.code, r.stderr).toBe(0);
  const all = JSON.parse(r.stdout) as { hardware_id: string; capabilities: string[] }[];
  return all.filter((d) => d.capabilities.includes('reboot')).slice(0, count).map((d) => d.hardware_id);
}

describe('a torn journal', { timeout: 120_000 }, () => {
  it('is repaired by --resume (its device replays by its key), resumes again, and reads the same in status', async () => {
    const ids = await rebootable(3);
    expect(ids).toHaveLength(3);
    const sent = await h.cli(['devices', 'reboot', ...ids, '--yes', '-o', 'json']);
    expect(sent.code, sent.stderr).toBe(0);
    const runId = /Run (\S+):/.exec(sent.stderr)![1]!;
    const file = path.join(h.configDir, 'runs', `${runId}.ndjson`);
    // the last result line cut short, as a crash or a full disk leaves it
    const lines = readFileSync(file, 'utf8').split('\n').filter((line) => line !== '');
    const last = lines.at(-1)!;
    const tornId = (JSON.parse(last) as { hardware_id: string }).hardware_id;
    writeFileSync(file, `${lines.slice(0, -1).join('\n')}\n${last.slice(0, 40)}`);

    const first = await h.cli(['devices', 'reboot', '--resume', runId, '--yes', '-o', 'json']);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).toContain(`Repaired the journal ${file}: dropped its last line`);
    expect(first.stderr).toContain(`device ${tornId}`);
    // executed once already: sent again with the same key, the service replays it
    expect(JSON.parse(first.stdout)).toEqual([expect.objectContaining({ hardware_id: tornId, status: 'replayed' })]);

    const second = await h.cli(['devices', 'reboot', '--resume', runId, '--yes', '-o', 'json']);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stderr).not.toContain('not JSON');
    expect(second.stderr).not.toContain('Repaired');
    for (const line of readFileSync(file, 'utf8').split('\n').filter((l) => l !== '')) expect(() => JSON.parse(line)).not.toThrow();

    const status = await h.cli(['status', '-o', 'json']);
    expect(status.code, status.stderr).toBe(0);
    const run = (JSON.parse(status.stdout) as { commands: { runs: { run_id: string; results: Record<string, number> }[] } }).commands.runs.find((r) => r.run_id === runId);
    expect(run?.results).toEqual({ accepted: 2, replayed: 1 });
  });

  it('left 0-byte by a killed start does not block reusing --journal PATH', async () => {
    const [id] = await rebootable(1);
    const file = path.join(tempDir('fleetctl-e2e-journal-'), 'night.ndjson');
    writeFileSync(file, '');
    const r = await h.cli(['devices', 'reboot', id!, '--journal', file, '--yes', '-o', 'json']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`Replaced the journal ${file}: it was empty, left by a run killed as it started.`);
    const runId = /Run (\S+):/.exec(r.stderr)![1];
    expect(JSON.parse(readFileSync(file, 'utf8').split('\n')[0]!)).toMatchObject({ type: 'run', run_id: runId });
  });

  it('header-only, as a run killed before its first request leaves it, does not block reusing --journal PATH; once it began sending, it does', async () => {
    const [first, second] = await rebootable(2);
    const file = path.join(tempDir('fleetctl-e2e-journal-'), 'night.ndjson');
    const earlier = await h.cli(['devices', 'reboot', first!, second!, '--journal', file, '--yes', '-o', 'json']);
    expect(earlier.code, earlier.stderr).toBe(0);
    // the header, then the line written before the first request, then the results
    const [header, sending] = readFileSync(file, 'utf8').split('\n');
    expect(JSON.parse(sending!)).toEqual({ type: 'sending', at: expect.any(String) });
    writeFileSync(file, `${header}\n`);
    const before = ((await (await fetch(`${h.sandbox.baseUrl}/_sandbox/commands`)).json()) as unknown[]).length;
    const reused = await h.cli(['devices', 'reboot', first!, second!, '--journal', file, '--yes', '-o', 'json']);
    expect(reused.code, reused.stderr).toBe(0);
    expect(reused.stderr).toContain(`Replaced the journal ${file}: it held only its header: its run sent nothing, left by a run killed as it started.`);
    const executed = ((await (await fetch(`${h.sandbox.baseUrl}/_sandbox/commands`)).json()) as { hardware_id: string }[]).slice(before);
    expect(executed.map((e) => e.hardware_id).sort()).toEqual([first, second].sort());
    // killed after its sending line: it may have sent commands it did not journal; only its --resume finishes it
    const runId = (JSON.parse(header!) as { run_id: string }).run_id;
    writeFileSync(file, `${header}\n${sending}\n`);
    const refused = await h.cli(['devices', 'reboot', first!, '--journal', file, '--yes']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`journal ${file} already exists`);
    expect(refused.stderr).toContain(`--resume ${runId}`);
  });
});
