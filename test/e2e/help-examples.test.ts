// Every example in every --help works as written, tried the way a new user would: in bash, with fleetctl on
// PATH, a fresh config directory, and a sandbox exported as in the README (for the examples without --sandbox).
import { rmSync } from 'node:fs';
import type { Command } from 'commander';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/main.js';
import { createDeps } from '../../src/factory.js';
import { IOStreams } from '../../src/io/streams.js';
import { examplesOf, type Example } from '../../src/commands/shared/help.js';
import { startHarness, type SandboxHarness } from './harness.js';
import { fleetctlOnPath, runExample as runAsUser, withFreePorts } from './examples.js';

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
  return !example.runsUntilInterrupted && /\b(list|search|events|media|requests|descendants)\b(?! download)/.test(last) && !/>\s*\S+$/.test(last);
}

const program = await buildProgram(createDeps({ io: IOStreams.forTest(), env: {} }, () => ({})));
const examples = collect(program, 'fleetctl', []);

let harness: SandboxHarness;
let shimDir: string;

beforeAll(async () => {
  harness = await startHarness();
  shimDir = fleetctlOnPath();
});

afterAll(async () => {
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

  for (const example of examples) {
    it(`${example.where}: ${example.command}`, { timeout: 70_000 }, async () => {
      const outcome = await runAsUser(example, { env: harness.envFor('sandbox-admin'), shimDir });
      const report = `$ ${example.command}\nexit ${outcome.code}\nstdout:\n${outcome.stdout.slice(0, 2000)}\nstderr:\n${outcome.stderr.slice(0, 2000)}`;
      expect(outcome.code, report).toBe(0);
      expect(outcome.stderr, report).not.toMatch(/^Error:/m);
      // an example that lists something finds something in the sandbox: a window or filter that matches
      // nothing would teach the reader nothing
      if (listsSomething(example)) expect(outcome.stdout.trim(), report).not.toBe('');
    });
  }
});
