// The README's recipes run as written against a sandbox, the way the help examples do, and print what they say.
import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, startHarness, type SandboxHarness } from './harness.js';
import { fleetctlOnPath, runExample, type Outcome, type RunOptions } from './examples.js';

interface Recipe {
  comment: string;
  command: string;
}

/** The recipes: the first sh block of the README's Recipes section, a comment line then a command each. */
function readmeRecipes(): Recipe[] {
  const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const section = readme.split(/^## Recipes$/m)[1]!.split(/^## /m)[0]!;
  const block = /```sh\n([\s\S]*?)```/.exec(section)![1]!;
  return block
    .trim()
    .split(/\n\s*\n/)
    .map((entry) => {
      const lines = entry.split('\n');
      return { comment: lines[0]!.replace(/^# /, ''), command: lines.slice(1).join('\n') };
    });
}

const recipes = readmeRecipes();
let h: SandboxHarness;
let shimDir: string;

beforeAll(async () => {
  h = await startHarness();
  shimDir = fleetctlOnPath();
  // the state the recipe about webhook configuration assumes: the organization has one
  const created = await h.cli(['webhook-config', 'create', '--url', 'https://hooks.example.com/fleet', '--topics', 'events,alarms']);
  expect(created.code, created.stderr).toBe(0);
});

afterAll(async () => {
  await h?.close();
  if (shimDir) rmSync(shimDir, { recursive: true, force: true });
});

function run(recipe: Recipe, extra: Partial<RunOptions> = {}): Promise<Outcome> {
  return runExample({ command: recipe.command, runsUntilInterrupted: recipe.command.includes('--follow') }, { env: h.envFor(), shimDir, ...extra });
}

function recipe(words: string): Recipe {
  const found = recipes.find((r) => r.comment.includes(words));
  if (!found) throw new Error(`no README recipe about "${words}"`);
  return found;
}

function report(r: Recipe, o: Outcome): string {
  return `$ ${r.command}\nexit ${o.code}\nstdout:\n${o.stdout.slice(0, 1500)}\nstderr:\n${o.stderr.slice(0, 1500)}`;
}

describe('README recipes', () => {
  it('there are five, each a comment and a command', () => {
    expect(recipes).toHaveLength(5);
    for (const r of recipes) expect(r.command).toMatch(/^fleetctl /);
  });

  it('devices without the reboot capability: their hardware ids', { timeout: 70_000 }, async () => {
    const r = recipe('cannot be rebooted');
    const o = await run(r);
    expect(o.code, report(r, o)).toBe(0);
    const ids = o.stdout.trim().split('\n');
    expect(ids.every((id) => /^HW-\d{6}$/.test(id))).toBe(true);
    expect(ids).toContain('HW-000008');
    expect(ids).not.toContain('HW-000001');
  });

  it('devices of a fleet, the one that reported last first', { timeout: 70_000 }, async () => {
    const r = recipe('reported last first');
    const o = await run(r);
    expect(o.code, report(r, o)).toBe(0);
    const [header, ...rows] = o.stdout.replace(/\n$/, '').split('\n');
    expect(header).toBe('hardware_id\tname\tlast_seen_at');
    expect(rows.length).toBeGreaterThan(1);
    const times = rows.map((row) => row.split('\t')[2]!);
    const reported = times.filter(Boolean);
    expect(reported).toEqual([...reported].sort().reverse());
    expect(times.slice(reported.length).every((t) => t === '')).toBe(true);
    expect(o.stderr).toContain('--sort holds every item in memory');
  });

  it('the last hour of a device followed live into a file: new events arrive in it, Ctrl-C ends it with 0', { timeout: 70_000 }, async () => {
    const r = recipe('appended to a file');
    const file = /(\S+\.ndjson)\s*$/.exec(r.command)![1]!;
    let written: string[] = [];
    const polls = async () => ((await (await fetch(`${h.sandbox.baseUrl}/_sandbox/requests?operation_id=listDeviceEvents&hardware_id=HW-000001`)).json()) as unknown[]).length;
    const before = await polls();
    const until = async (cwd: string) => {
      const target = path.join(cwd, file);
      // after the first window has been answered (the sandbox's journal shows it, where a fixed 2 s sleep
      // guessed it): the new events come through a later poll
      for (const end = Date.now() + 30_000; (await polls()) === before; ) {
        if (Date.now() > end) throw new Error('the recipe never asked for its first window');
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const res = await fetch(`${h.sandbox.baseUrl}/_sandbox/emit`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ type: 'event.generic', count: 200 }) });
      const mine = ((await res.json()) as { events: { id: string; hardware_id: string }[] }).events.filter((e) => e.hardware_id === 'HW-000001').map((e) => e.id);
      expect(mine.length).toBeGreaterThan(0);
      const end = Date.now() + 40_000;
      for (;;) {
        const lines = existsSync(target) ? readFileSync(target, 'utf8').split('\n').filter(Boolean) : [];
        written = lines.map((line) => (JSON.parse(line) as { event_id: string }).event_id);
        if (mine.every((id) => written.includes(id))) return;
        if (Date.now() > end) throw new Error(`the file has ${written.length} events, not the new ones`);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    };
    const o = await run(r, { until });
    expect(o.code, report(r, o)).toBe(0);
    expect(written.length).toBeGreaterThan(0);
    expect(new Set(written).size).toBe(written.length);
  });

  it('the webhook configuration as YAML', { timeout: 70_000 }, async () => {
    const r = recipe('as YAML');
    let config: { organization_id?: string; topics?: { type: string }[]; etag?: string } = {};
    const o = await run(r, { inspect: (cwd) => (config = parse(readFileSync(path.join(cwd, 'webhook-config.yaml'), 'utf8'))) });
    expect(o.code, report(r, o)).toBe(0);
    expect(config.organization_id).toBe(h.envFor().FLEETCTL_ORGANIZATION_ID);
    expect(config.topics!.map((t) => t.type)).toEqual(['events', 'alarms']);
    expect(config.etag).toMatch(/\S/);
  });

  it('events of a fleet counted by type with --jq', { timeout: 70_000 }, async () => {
    const r = recipe('counted by type');
    const o = await run(r);
    expect(o.code, report(r, o)).toBe(0);
    const counts = JSON.parse(o.stdout) as { type: string; count: number }[];
    expect(counts.length).toBeGreaterThan(1);
    expect(counts.map((c) => c.count)).toEqual(counts.map((c) => c.count).sort((a, b) => b - a));
    expect(new Set(counts.map((c) => c.type)).size).toBe(counts.length);
  });
});
