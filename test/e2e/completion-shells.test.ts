// Completion as an operator meets it: the committed scripts loaded the way the README says, in real interactive
// shells in a pseudo-terminal, with the built fleetctl on PATH and a real sandbox behind it. Keys are typed and
// the rendered screen is read. zsh and fish must be installed (.ci/run installs them when missing).
import { copyFileSync, chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/main.js';
import { createDeps } from '../../src/factory.js';
import { IOStreams } from '../../src/io/streams.js';
import { startShellPty, type ShellPty } from '../support/shell-pty.js';
import { BIN, ROOT, startHarness, type SandboxHarness } from './harness.js';

const PROMPT = '$ ';
const program = await buildProgram(createDeps({ io: IOStreams.forTest(), env: {} }, () => ({})));
const OUTPUT_CHOICES = program.options.find((o) => o.long === '--output')!.argChoices!;

let harness: SandboxHarness;
let home: string;
let work: string;
let env: Record<string, string>;
let hardwareIds: string[];
let fleets: { id: string; name: string }[];
let closedPort: number;

beforeAll(async () => {
  harness = await startHarness();
  home = mkdtempSync(path.join(os.tmpdir(), 'fleetctl-shells-'));
  const bin = path.join(home, 'bin');
  mkdirSync(bin);
  writeFileSync(path.join(bin, 'fleetctl'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
  chmodSync(path.join(bin, 'fleetctl'), 0o755);
  // an extension on PATH: completes where a command goes, as an alias does
  writeFileSync(path.join(bin, 'fleetctl-daybook'), '#!/bin/sh\necho daybook\n');
  chmodSync(path.join(bin, 'fleetctl-daybook'), 0o755);
  // ./here is where the shells run; ../design.json and ../desk/ are there to be completed.
  work = path.join(home, 'work');
  mkdirSync(path.join(work, 'here'), { recursive: true });
  mkdirSync(path.join(work, 'desk'));
  writeFileSync(path.join(work, 'design.json'), '{}');
  env = { ...harness.envFor(), PATH: `${bin}:${process.env.PATH}`, HOME: home, TERM: 'xterm-256color', LANG: 'C.UTF-8', PS1: PROMPT };
  for (const profile of ['prod', 'staging']) await harness.cli(['config', 'set', 'base_url', harness.sandbox.baseUrl, '--profile', profile]);
  expect((await harness.cli(['alias', 'set', 'night-devices', 'devices list --fleet-id $1'])).code).toBe(0);
  hardwareIds = (JSON.parse((await harness.cli(['devices', 'list', '--all', '-o', 'json'])).stdout) as { hardware_id: string }[]).map((d) => d.hardware_id);
  fleets = JSON.parse((await harness.cli(['fleets', 'list', '--all', '-o', 'json'])).stdout) as { id: string; name: string }[];
  closedPort = await new Promise<number>((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}, 60_000);

afterAll(async () => {
  await harness?.close();
  rmSync(home, { recursive: true, force: true });
});

const startingWith = (prefix: string) => hardwareIds.filter((id) => id.startsWith(prefix)).sort();
/** The hardware ids shown below the command line. */
const listedIds = (screen: string) => [...new Set(screen.split('\n').slice(1).join('\n').match(/HW-\d{6}/g) ?? [])].sort();
const showsAll = (words: readonly string[]) => (screen: string) => {
  const below = screen.split('\n').slice(1).join(' ');
  return words.every((word) => below.split(/\s+/).includes(word));
};

/** Types the line, then a marker once the completion is done: the screen must show the line unchanged, alone. */
async function expectNothingOffered(shell: ShellPty, line: string, keys: string): Promise<void> {
  shell.type(`${line}${keys}`);
  shell.type('X');
  const screen = await shell.waitFor((text) => text.includes(`${line}X`), 15_000);
  expect(screen).toBe(`${PROMPT}${line}X`);
}

describe('bash (bash --norc --noprofile -i, the script sourced)', { timeout: 30_000 }, () => {
  let shell: ShellPty;

  beforeAll(async () => {
    expect(startingWith('HW-00000').length, 'the sandbox seeds HW-000001 and the ids after it').toBeGreaterThan(1);
    shell = startShellPty({ command: ['bash', '--norc', '--noprofile', '-i'], env, cwd: path.join(work, 'here') });
    await shell.waitFor(PROMPT.trim());
    await shell.run(`source ${path.join(ROOT, 'completions/fleetctl.bash')}`, PROMPT);
  });
  afterAll(() => shell?.close());

  it('devices reboot HW-00000 Tab Tab lists the hardware ids of the fleet that start so', async () => {
    await shell.reset(PROMPT);
    const expected = startingWith('HW-00000');
    shell.type('fleetctl devices reboot HW-00000\t\t');
    const screen = await shell.waitFor(showsAll(expected), 15_000);
    expect(listedIds(screen)).toEqual(expected);
  });

  it('a unique start completes the id in the line, with a space after it', async () => {
    await shell.reset(PROMPT);
    const id = hardwareIds.find((candidate) => startingWith(candidate.slice(0, -1)).length === 1) ?? hardwareIds[0];
    shell.type(`fleetctl devices get ${id.slice(0, -1)}\tX`);
    await shell.waitFor(`${PROMPT}fleetctl devices get ${id} X`, 15_000);
  });

  it('-o Tab Tab lists the output formats', async () => {
    await shell.reset(PROMPT);
    shell.type('fleetctl devices list -o \t\t');
    await shell.waitFor(showsAll(OUTPUT_CHOICES), 15_000);
  });

  it('completion Tab Tab lists the shells', async () => {
    await shell.reset(PROMPT);
    shell.type('fleetctl completion \t\t');
    await shell.waitFor(showsAll(['bash', 'zsh', 'fish']), 15_000);
  });

  it('--from-file ../des Tab Tab lists file names; ../desi Tab completes one', async () => {
    await shell.reset(PROMPT);
    shell.type('fleetctl devices reboot --from-file ../des\t\t');
    await shell.waitFor(showsAll(['design.json', 'desk/']), 15_000);
    await shell.reset(PROMPT);
    shell.type('fleetctl devices reboot --from-file ../desi\tX');
    await shell.waitFor(`${PROMPT}fleetctl devices reboot --from-file ../design.json X`, 15_000);
  });

  it('--fleet-id Tab Tab lists the fleet ids', async () => {
    await shell.reset(PROMPT);
    shell.type('fleetctl events search --since 1d --fleet-id \t\t');
    await shell.waitFor(showsAll(fleets.map((f) => f.id)), 15_000);
  });

  it('--profile Tab Tab lists the profiles of the config store', async () => {
    await shell.reset(PROMPT);
    shell.type('fleetctl --profile \t\t');
    await shell.waitFor(showsAll(['prod', 'staging']), 15_000);
  });

  it('with --sandbox on the line, nothing live is offered and nothing is printed', async () => {
    await shell.reset(PROMPT);
    await expectNothingOffered(shell, 'fleetctl --sandbox devices get HW-0000', '\t\t');
  });

  it("an alias of the config store completes where a command goes", async () => {
    await shell.reset(PROMPT);
    shell.type('fleetctl --profile prod nigh\tX');
    await shell.waitFor(`${PROMPT}fleetctl --profile prod night-devices X`, 15_000);
  });

  it('an extension on PATH completes where a command goes', async () => {
    await shell.reset(PROMPT);
    shell.type('fleetctl dayb\tX');
    await shell.waitFor(`${PROMPT}fleetctl daybook X`, 15_000);
  });

  it('an API that cannot be reached: nothing offered, no error in the line', async () => {
    await shell.reset(PROMPT);
    await expectNothingOffered(shell, `fleetctl --base-url http://127.0.0.1:${closedPort} devices get HW-0000`, '\t\t');
  });
});

describe('zsh (zsh -f -i, the script in fpath as the README says, compinit)', { timeout: 30_000 }, () => {
  let shell: ShellPty;

  beforeAll(async () => {
    const zfunc = path.join(home, '.zfunc');
    mkdirSync(zfunc, { recursive: true });
    copyFileSync(path.join(ROOT, 'completions/_fleetctl'), path.join(zfunc, '_fleetctl'));
    shell = startShellPty({ command: ['zsh', '-f', '-i'], env, cwd: path.join(work, 'here') });
    // Nothing is typed before the line editor is up: keys typed ahead of it are echoed raw and may be lost.
    await shell.waitFor(PROMPT.trim());
    await shell.run(`fpath=(${zfunc} $fpath); autoload -U compinit; compinit -u -D; PS1='${PROMPT}'`, PROMPT);
  });
  afterAll(() => shell?.close());

  it('devices reboot HW-00000 Tab lists the hardware ids, each with its device name', async () => {
    await shell.reset(PROMPT);
    const expected = startingWith('HW-00000');
    shell.type('fleetctl devices reboot HW-00000\t');
    const screen = await shell.waitFor(showsAll(expected), 15_000);
    expect(listedIds(screen)).toEqual(expected);
    expect(screen).toMatch(new RegExp(`${expected[0]}\\s+-- \\S`));
  });

  it('-o Tab lists the output formats; completion Tab the shells', async () => {
    await shell.reset(PROMPT);
    shell.type('fleetctl -o \t');
    await shell.waitFor(showsAll(OUTPUT_CHOICES), 15_000);
    await shell.reset(PROMPT);
    shell.type('fleetctl completion \t');
    await shell.waitFor(showsAll(['bash', 'zsh', 'fish']), 15_000);
  });

  it('--from-file ../desi Tab completes the file name', async () => {
    await shell.reset(PROMPT);
    shell.type('fleetctl devices reboot --from-file ../desi\tX');
    await shell.waitFor(`${PROMPT}fleetctl devices reboot --from-file ../design.json X`, 15_000);
  });

  it("an alias of the config store completes where a command goes", async () => {
    await shell.reset(PROMPT);
    shell.type('fleetctl nigh\tX');
    await shell.waitFor(`${PROMPT}fleetctl night-devices X`, 15_000);
  });

  it('an extension on PATH completes where a command goes', async () => {
    await shell.reset(PROMPT);
    shell.type('fleetctl dayb\tX');
    await shell.waitFor(`${PROMPT}fleetctl daybook X`, 15_000);
  });

  it('with --sandbox on the line, nothing live is offered and nothing is printed', async () => {
    await shell.reset(PROMPT);
    await expectNothingOffered(shell, 'fleetctl --sandbox devices get HW-0000', '\t');
  });
});

describe('fish (its own `complete -C`, the script where the README installs it)', { timeout: 30_000 }, () => {
  it('ids from the sandbox with their names, and fleet ids', () => {
    const functions = path.join(home, '.config/fish/completions');
    mkdirSync(functions, { recursive: true });
    copyFileSync(path.join(ROOT, 'completions/fleetctl.fish'), path.join(functions, 'fleetctl.fish'));
    const complete = (line: string) =>
      execFileSync('fish', ['-c', `complete -C '${line}'`], { encoding: 'utf8', env, cwd: path.join(work, 'here') }).split('\n').filter(Boolean);
    const expected = startingWith('HW-00000');
    const ids = complete('fleetctl devices reboot HW-00000');
    expect(ids.map((line) => line.split('\t')[0])).toEqual(expected);
    expect(ids.every((line) => /^HW-\d{6}\t\S/.test(line))).toBe(true);
    expect(complete('fleetctl devices list --fleet-id ').map((line) => line.split('\t')[0]).sort()).toEqual(fleets.map((f) => f.id).sort());
    // an alias where a command goes, with what it expands to, and after alias delete
    expect(complete('fleetctl nigh')).toEqual(['night-devices\talias: devices list --fleet-id $1']);
    expect(complete('fleetctl alias delete nigh')).toEqual(['night-devices\talias: devices list --fleet-id $1']);
    // an extension on PATH where a command goes, with its path; alias delete offers aliases only
    expect(complete('fleetctl dayb')).toEqual([`daybook\textension: ${path.join(home, 'bin', 'fleetctl-daybook')}`]);
    expect(complete('fleetctl alias delete dayb')).toEqual([]);
  });
});
