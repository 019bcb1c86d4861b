// A hang-up (SIGHUP: the SSH session or terminal went away) of every command that runs until stopped: each ends
// with exit 129, its output whole (-o json a valid array; a followed stream whole lines of JSON), no lock file left
// behind, and the state it keeps saved (the embedded sandbox's, a `fleetctl sandbox --state` file's), so that the
// next command finds it. Each is hung up once it is under way: its first output, or the line that says it is.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadState } from '../../src/sandbox/state-file.js';
import { tempDir } from '../support/temp-dir.js';
import { FLEET, spawnFleetctl } from './crash-trial.js';

interface HungUp {
  code: number | null;
  stdout: string;
  stderr: string;
  configDir: string;
}

interface LongRunning {
  name: string;
  /** Its arguments; `dir` is a folder of its own (its config folder is another). */
  args(dir: string): string[];
  /** Under way: what it printed (or its config folder) says so (and `afterMs` more have passed). Asked as output comes, and every 100 ms. */
  underWay(out: { stdout: string; stderr: string }, configDir: string): boolean;
  afterMs?: number;
  /** What its output must be after the hang-up. */
  output(run: HungUp): void | Promise<void>;
  /** The state file it keeps, to be found saved. */
  state?(dir: string, configDir: string): string;
}

const embeddedState = (_dir: string, configDir: string) => path.join(configDir, 'sandbox', 'state.json');

/** The devices a run's journal says it follows (each accepted device of a --wait run), 0 before there is one. */
function watchingIn(configDir: string): number {
  const runs = path.join(configDir, 'runs');
  const journal = existsSync(runs) ? readdirSync(runs).find((name) => name.endsWith('.ndjson')) : undefined;
  return journal ? readFileSync(path.join(runs, journal), 'utf8').split('"outcome":"watching"').length - 1 : 0;
}
const jsonLines = (run: HungUp) => {
  const lines = run.stdout.split('\n').filter(Boolean);
  expect(lines.length, run.stderr).toBeGreaterThan(0);
  for (const line of lines) expect(() => JSON.parse(line), line).not.toThrow();
  expect(run.stdout.endsWith('\n')).toBe(true);
};

const COMMANDS: LongRunning[] = [
  {
    name: 'devices events --follow (embedded sandbox)',
    args: () => ['--sandbox', 'devices', 'events', 'HW-000001', '--since', '30d', '--follow', '--interval', '1s', '-o', 'json'],
    underWay: ({ stdout }) => stdout.includes('\n'),
    output: jsonLines,
    state: embeddedState,
  },
  {
    name: 'events search --follow (embedded sandbox)',
    args: () => ['--sandbox', 'events', 'search', '--fleet-id', FLEET, '--since', '30d', '--follow', '--interval', '1s', '-o', 'ndjson'],
    underWay: ({ stdout }) => stdout.includes('\n'),
    output: jsonLines,
    state: embeddedState,
  },
  {
    name: 'devices last-position --watch (embedded sandbox)',
    args: () => ['--sandbox', 'devices', 'last-position', 'HW-000001', '--watch', '--interval', '1s', '-o', 'json'],
    underWay: ({ stdout }) => stdout.includes('\n'),
    output: jsonLines,
    state: embeddedState,
  },
  {
    name: 'devices reboot --wait (embedded sandbox), hung up while it waits',
    args: () => ['--sandbox', 'devices', 'reboot', '--fleet-id', FLEET, '--wait', '--wait-timeout', '10m', '--yes', '-o', 'json'],
    // the run id is out and its journal follows each of its 31 reboots, all accepted: it waits for devices that do
    // not report (a fixed delay after the run id was not enough on a loaded machine: 17 of 31 were sent)
    underWay: ({ stderr }, configDir) => /--resume \S+\)/.test(stderr) && watchingIn(configDir) >= 31,
    afterMs: 200,
    output: async (run) => {
      const journal = readdirSync(path.join(run.configDir, 'runs')).find((name) => name.endsWith('.ndjson'))!;
      expect(readFileSync(path.join(run.configDir, 'runs', journal), 'utf8')).toContain('"outcome":"watching"');
      // its reboots are in the sandbox's saved state
      const saved = await loadState(embeddedState('', run.configDir));
      expect(saved?.state.commands.log.length).toBe(31);
      expect(Array.isArray(JSON.parse(run.stdout)), run.stdout).toBe(true);
      const runId = /--resume (\S+)\)/.exec(run.stderr)![1];
      // the resume line again, after the interruption
      expect(run.stderr.split('\n').filter((line) => line.includes(`--resume ${runId}`)).length, run.stderr).toBeGreaterThan(1);
    },
    state: embeddedState,
  },
  {
    name: 'webhook listen',
    args: () => ['webhook', 'listen', '--port', '0', '--key', 'hang-up-key'],
    underWay: ({ stderr }) => stderr.includes('Listening on'),
    output: (run) => expect(run.stderr).toContain('Stopped after 0 event(s)'),
  },
  {
    name: 'sandbox --state FILE',
    args: (dir) => ['sandbox', '--port', '0', '--json', '--state', path.join(dir, 'state.json')],
    underWay: ({ stdout }) => stdout.includes('\n'),
    output: (run) => expect(JSON.parse(run.stdout.split('\n')[0]!)).toHaveProperty('base_url'),
    state: (dir) => path.join(dir, 'state.json'),
  },
];

function hangUpOnceUnderWay(command: LongRunning, dir: string, configDir: string): Promise<HungUp> {
  return new Promise((resolve, reject) => {
    const child = spawnFleetctl(command.args(dir), { FLEETCTL_CONFIG_DIR: configDir }, 'pipe');
    const out = { stdout: '', stderr: '' };
    let hungUp = false;
    const look = () => {
      if (hungUp || !command.underWay(out, configDir)) return;
      hungUp = true;
      clearInterval(poll);
      setTimeout(() => child.kill('SIGHUP'), command.afterMs ?? 0);
    };
    // what a config folder says comes without output
    const poll = setInterval(look, 100);
    child.stdout!.on('data', (chunk: Buffer) => {
      out.stdout += chunk.toString();
      look();
    });
    child.stderr!.on('data', (chunk: Buffer) => {
      out.stderr += chunk.toString();
      look();
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      clearInterval(poll);
      resolve({ code, ...out, configDir });
    });
  });
}

describe('SIGHUP of a command that runs until stopped', () => {
  it.each(COMMANDS)('$name: exit 129, its output whole, no lock left, its state saved', async (command) => {
    const dir = tempDir('fleetctl-hangup-');
    const configDir = tempDir('fleetctl-hangup-config-');
    const run = await hangUpOnceUnderWay(command, dir, configDir);
    expect(run.code, run.stderr).toBe(129);
    await command.output(run);
    const left = [dir, configDir].flatMap((folder) => readdirSync(folder, { recursive: true, encoding: 'utf8' })).filter((name) => /\.(lock|break)$|\.tmp$/.test(name));
    expect(left).toEqual([]);
    if (command.state) expect(await loadState(command.state(dir, configDir)), 'its state saved').toBeDefined();
  }, 90_000);
});
