// Every example in every --help works as written, tried the way a new user would: in bash, with fleetctl on
// PATH, a fresh config directory, and a sandbox exported as in the README (for the examples without --sandbox).
//
// The examples run four at a time against the one shared sandbox (one after another they took two minutes).
// Each has its own HOME and config directory, so an example with --sandbox has its own embedded sandbox too.
// Those without --sandbox share the exported one, and some change it (a webhook configuration created or
// deleted, a fault rule added then removed by id, a device assigned then unassigned): the examples of one
// command group run one after another, in help order, as a reader trying them would; groups run side by side.
import { rmSync } from 'node:fs';
import type { Command } from 'commander';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/main.js';
import { createDeps } from '../../src/factory.js';
import { IOStreams } from '../../src/io/streams.js';
import { examplesOf, type Example } from '../../src/commands/shared/help.js';
import { startHarness, type SandboxHarness } from './harness.js';
import { fleetctlOnPath, runExample as runAsUser, withFreePorts, type Outcome } from './examples.js';
import { runInLanes } from '../support/lanes.js';

interface Found extends Example {
  where: string;
}

function collect(command: Command, where: string, out: Found[]): Found[] {
  for (const example of examplesOf(command)) out.push({ ...example, where });
  for (const sub of command.commands) collect(sub, `${where} ${sub.name()}`, out);
  return out;
}

/** The example's last fleetctl command lists records: a list, search, events, media, requests or descendants verb. */
function listsSomething(example: Example): boolean {
  const last = example.command.replace(/\$\([^)]*\)/g, '').split(/[;|&]/).map((part) => part.trim()).filter((part) => /^\S*fleetctl\b/.test(part)).at(-1) ?? '';
  // the command's own words (group, verb, sub-verb), not its flag values: `--topics events` lists nothing
  const words = last.split(/\s+/).slice(1).filter((word) => !word.startsWith('-')).slice(0, 3).join(' ');
  return !example.runsUntilInterrupted && /\b(list|search|events|media|requests|descendants)\b(?! download)/.test(words) && !/>\s*\S+$/.test(last);
}

const program = await buildProgram(createDeps({ io: IOStreams.forTest(), env: {} }, () => ({})));
const examples = collect(program, 'fleetctl', []);

/** Examples run side by side: enough to overlap their waits on a 2-core machine, few enough not to starve it. */
const CONCURRENCY = 4;

/** An example whose every fleetctl has --sandbox touches only its own config directory; the others share the exported sandbox. */
function laneOf(example: Found, index: number): string {
  const script = `${example.given ?? ''}\n${example.command}`;
  const calls = [...script.matchAll(/\bfleetctl\b( --sandbox\b)?/g)];
  if (calls.length > 0 && calls.every((call) => call[1] !== undefined)) return `own ${index}`;
  return `shared ${example.where.split(' ').slice(0, 2).join(' ')}`;
}

let harness: SandboxHarness;
let shimDir: string;
let outcomes: Promise<Outcome>[];

beforeAll(async () => {
  harness = await startHarness();
  shimDir = fleetctlOnPath();
  // started here, awaited one by one by the tests below
  const env = harness.envFor('sandbox-admin');
  outcomes = runInLanes(examples.map((example, i) => ({ lane: laneOf(example, i), run: () => runAsUser(example, { env, shimDir }) })), CONCURRENCY);
});

afterAll(async () => {
  // a failed test leaves the examples after it running: let them end before their sandbox goes
  await Promise.allSettled(outcomes ?? []);
  await harness?.close();
  if (shimDir) rmSync(shimDir, { recursive: true, force: true });
});

describe('help examples', () => {
  it('every verb has examples', () => {
    expect(examples.length).toBeGreaterThan(40);
  });

  it('a fixed listener port in an example is swapped for a free one, everywhere it appears', async () => {
    const rewritten = await withFreePorts('x --port 4011 & y --to http://127.0.0.1:4011/hooks; z --port 0');
    const port = /--port (\d+) /.exec(rewritten)![1]!;
    expect(port).not.toBe('4011');
    expect(rewritten).toBe(`x --port ${port} & y --to http://127.0.0.1:${port}/hooks; z --port 0`);
  });

  examples.forEach((example, i) => {
    // the wait includes examples queued before this one; each example is killed after 60 s (runExample)
    it(`${example.where}: ${example.command}`, { timeout: 240_000 }, async () => {
      const outcome = await outcomes[i]!;
      const report = `$ ${example.command}\nexit ${outcome.code}\nstdout:\n${outcome.stdout.slice(0, 2000)}\nstderr:\n${outcome.stderr.slice(0, 2000)}`;
      expect(outcome.code, report).toBe(0);
      expect(outcome.stderr, report).not.toMatch(/^Error:/m);
      // an example that lists something finds something in the sandbox: a window or filter that matches
      // nothing would teach the reader nothing
      if (listsSomething(example)) expect(outcome.stdout.trim(), report).not.toBe('');
    });
  });
});
