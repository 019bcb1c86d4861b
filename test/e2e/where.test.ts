// Issue 37, points 1, 2 and 6 for lists: `devices list --where EXPR` selects what the expression says, against the
// sandbox and against the second service double, whose records name their members otherwise (reported_at, title,
// firmware.version, no capabilities): nothing depends on the sandbox's names.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type SandboxHarness } from './harness.js';
import { journalPathOf } from '../../src/bulk/journal.js';
import { startSecondHarness, report, type SecondHarness } from '../support/second-service/harness.js';

const hardwareIds = (stdout: string) => (JSON.parse(stdout) as { hardware_id: string }[]).map((d) => d.hardware_id).sort();

describe('devices list --where against the sandbox', { timeout: 120_000 }, () => {
  let h: SandboxHarness;
  let all: Record<string, unknown>[];
  beforeAll(async () => {
    h = await startHarness();
    const r = await h.cli(['devices', 'list', '--all', '-o', 'json']);
    all = JSON.parse(r.stdout);
  });
  afterAll(() => h.close());

  const where = async (expression: string) => {
    const r = await h.cli(['devices', 'list', '--all', '--where', expression, '-o', 'json']);
    expect(r.code, report(['--where', expression], r)).toBe(0);
    return hardwareIds(r.stdout);
  };

  it('selects what a reference reading of the records selects, fleet names resolved by the service', async () => {
    const fleets = JSON.parse((await h.cli(['fleets', 'list', '--all', '-o', 'json'])).stdout) as { id: string; name: string }[];
    const fleet = fleets[1]!;
    const ids = (keep: (d: Record<string, unknown>) => boolean) => all.filter(keep).map((d) => d.hardware_id as string).sort();
    expect(await where(`fleet:"${fleet.name.toUpperCase()}"`)).toEqual(ids((d) => d.fleet_id === fleet.id));
    expect(await where(`-fleet:${fleet.id} -has:wake_up`)).toEqual(ids((d) => d.fleet_id !== fleet.id && !(d.capabilities as string[]).includes('wake_up')));
    expect(await where('never-reported')).toEqual(ids((d) => d.last_seen_at === null || d.last_seen_at === undefined));
    const cut = all.map((d) => d.last_seen_at).filter((t): t is string => typeof t === 'string').sort()[10]!;
    expect(await where(`last_seen_at:<=${cut}`)).toEqual(ids((d) => typeof d.last_seen_at === 'string' && Date.parse(d.last_seen_at) <= Date.parse(cut)));
  });

  it('a bulk reboot --where sends to exactly the devices it selects, once each, and its journal keeps the expression and the targets', async () => {
    const executed = async () => (await (await fetch(`${h.sandbox.baseUrl}/_sandbox/commands`)).json()) as { hardware_id: string; command: string }[];
    const fleets = JSON.parse((await h.cli(['fleets', 'list', '--all', '-o', 'json'])).stdout) as { id: string; name: string }[];
    const fleet = fleets[2]!;
    const expression = `fleet:"${fleet.name}" has:reboot -never-reported`;
    const expected = all.filter((d) => d.fleet_id === fleet.id && (d.capabilities as string[]).includes('reboot') && typeof d.last_seen_at === 'string').map((d) => d.hardware_id as string).sort();
    expect(expected.length).toBeGreaterThan(1);
    // saved, and named as a target
    expect((await h.cli(['selection', 'save', 'north-capable', '--where', expression])).code).toBe(0);
    const dry = await h.cli(['devices', 'reboot', '@north-capable', '--dry-run', '-o', 'json']);
    expect(dry.code, report(['dry-run'], dry)).toBe(0);
    expect(dry.stderr).toContain(`selected ${expected.length} devices`);
    expect(JSON.parse(dry.stdout).map((r: { hardware_id: string }) => r.hardware_id).sort()).toEqual(expected);
    const before = (await executed()).length;
    const r = await h.cli(['devices', 'reboot', '--where', expression, '--yes', '-o', 'json']);
    expect(r.code, report(['reboot --where'], r)).toBe(0);
    const sent = (await executed()).slice(before);
    expect(sent.map((c) => c.hardware_id).sort()).toEqual(expected);
    const runId = /run (\d{8}T\d{6}Z-[0-9a-f]{6})/.exec(r.stderr)![1]!;
    const header = JSON.parse(readFileSync(journalPathOf(h.configDir, runId, undefined), 'utf8').split('\n')[0]!);
    expect(header).toMatchObject({ where: expression });
    expect([...header.targets].sort()).toEqual(expected);
    // a resume takes the journal's targets: --where is refused beside it
    const resumed = await h.cli(['devices', 'reboot', '--resume', runId, '--where', 'stale', '--yes']);
    expect(resumed.code).toBe(2);
    expect(resumed.stderr).toContain('give no --where or @NAME');
  });

  it('refuses an unknown member or fleet before listing, naming what it may have meant (exit 2)', async () => {
    const member = await h.cli(['devices', 'list', '--where', 'last_sen_at:>2h']);
    expect(member.code).toBe(2);
    expect(member.stderr).toMatch(/no qualifier or member "last_sen_at".*did you mean last_seen_at\?/);
    const fleet = await h.cli(['devices', 'list', '--where', 'fleet:Nowhere-at-all']);
    expect(fleet.code).toBe(2);
    expect(fleet.stderr).toContain('no fleet named "Nowhere-at-all"');
    expect(fleet.stdout).toBe('');
  });
});

describe('devices list --where against the second service double', { timeout: 120_000 }, () => {
  let h: SecondHarness;
  beforeAll(async () => {
    h = await startSecondHarness();
  });
  afterAll(() => h.close());

  const where = async (expression: string, harness = h) => {
    const r = await harness.cli(['devices', 'list', '--all', '--where', expression, '-o', 'json']);
    expect(r.code, report(['--where', expression], r)).toBe(0);
    return { ids: hardwareIds(r.stdout), stderr: r.stderr };
  };

  it('reads its fleet titles, its report time (reported_at) and its nested members', async () => {
    // seeded: TLM-00001..3 of Northern haulage reported 1 to 3 minutes ago; City couriers' 120 devices 100 to 219; TLM-00900 900
    expect((await where('fleet:"northern haulage"')).ids).toEqual(['TLM-00001', 'TLM-00002', 'TLM-00003']);
    expect((await where('seen:<1h')).ids).toEqual(['TLM-00001', 'TLM-00002', 'TLM-00003']);
    expect((await where('stale -fleet:"City couriers"')).ids).toEqual(['TLM-00900']);
    expect((await where('firmware.channel:beta seen:<10m')).ids).toEqual(['TLM-00002']);
    expect((await where('seen:899m..901m,<2m')).ids).toEqual(['TLM-00001', 'TLM-00900']);
  });

  it('leaves out, and says so, the devices whose capabilities its records do not state', async () => {
    const { ids, stderr } = await where('fleet:"Northern haulage" has:reboot');
    expect(ids).toEqual([]);
    expect(stderr).toMatch(/3 devices \(TLM-00001, TLM-00002, TLM-00003\) left out/);
  });

  it('names its own members in the did-you-mean', async () => {
    const r = await h.cli(['devices', 'list', '--where', 'reportd_at:>2026-01-01']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('did you mean reported_at?');
  });

  it('with no document served, finds the report time in the records and checks no member before listing', async () => {
    const bare = await startSecondHarness({ serveDocument: false });
    try {
      expect((await where('seen:<1h', bare)).ids).toEqual(['TLM-00001', 'TLM-00002', 'TLM-00003']);
      expect((await where('power_source:hardwired fleet:"Northern haulage"', bare)).ids).toEqual(['TLM-00003']);
    } finally {
      await bare.close();
    }
  });
});

describe('status --where and --list', { timeout: 120_000 }, () => {
  let h: SecondHarness;
  beforeAll(async () => {
    h = await startSecondHarness();
  });
  afterAll(() => h.close());

  it('counts only what --where selects, and --list prints the devices of a class it counts, for a bulk verb', async () => {
    const counted = await h.cli(['status', '-o', 'json', '--where', '-fleet:"City couriers"']);
    expect(counted.code, report(['status'], counted)).toBe(0);
    const { devices, selection } = JSON.parse(counted.stdout);
    expect(devices).toMatchObject({ total: 4, reporting: 3, stale: 1, never_reported: 0 });
    expect(selection.where).toBe('-fleet:"City couriers"');
    const listed = await h.cli(['status', '--list', 'stale', '--where', '-fleet:"City couriers"', '-o', 'ndjson']);
    expect(listed.code, report(['status', '--list'], listed)).toBe(0);
    const rows = listed.stdout.trim().split('\n').map((line) => JSON.parse(line));
    expect(rows).toEqual([expect.objectContaining({ hardware_id: 'TLM-00900', age_seconds: expect.any(Number), age: expect.stringMatching(/^1[45]h/) })]);
    expect(rows[0].age_seconds).toBeGreaterThanOrEqual(899 * 60);
    // what it printed is a target list as it is
    const dry = await h.cli(['devices', 'reboot', '--from-file', '-', '--dry-run', '-o', 'json'], { input: listed.stdout });
    expect(dry.code, report(['reboot', '--dry-run'], dry)).toBe(0);
    expect(JSON.parse(dry.stdout).map((r: { hardware_id: string }) => r.hardware_id)).toEqual(['TLM-00900']);
  });
});
