// The guided mode in a real terminal at 80 columns: the built CLI in a pseudo-terminal against a sandbox, driven by
// keystrokes, the screen read back through a terminal emulator. Needs `npm run build` first.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { ROOT, startHarness, type SandboxHarness } from './harness.js';
import { KEY, runInPty, type PtyRun } from '../support/pty-keys.js';

let h: SandboxHarness;
let devices: { id: string; hardware_id: string; capabilities: string[] }[];

beforeAll(async () => {
  h = await startHarness({ devices: 30 });
  devices = JSON.parse((await h.cli(['devices', 'list', '--all', '-o', 'json'])).stdout) as typeof devices;
}, 60_000);
afterAll(() => h?.close());

// The README's "Guided mode" block, run as written: its first line by the first test, its second by the second.
const README_BLOCK = /```sh\n([\s\S]*?)```/.exec(readFileSync(path.join(ROOT, 'README.md'), 'utf8').split(/^## Guided mode$/m)[1]!.split(/^## /m)[0]!)![1]!;
const [ALONE, NAMED] = README_BLOCK.trim().split('\n').map((line) => line.split(' ').slice(1));

/** fleetctl ARGS in a terminal of 80 columns, ended with the test however it ends. */
function guided(args: string[]): PtyRun {
  const run = runInPty(args, { env: h.envFor(), cols: 80, rows: 30 });
  onTestFinished(() => run.kill());
  return run;
}

/** The words typed at the first question, and Enter once `verb` is the first of the list (its line follows the pattern). */
async function chooseVerb(run: PtyRun, words: string, verb: RegExp): Promise<void> {
  await run.waitFor(/Command \(type words of its name or what it does\)/);
  run.type(words);
  await run.waitFor(verb);
  expect(run.wrappedRows()).toBe(0);
  run.type(KEY.enter);
}

const commandsSent = async () => (await (await fetch(`${h.sandbox.baseUrl}/_sandbox/commands`)).json()) as { hardware_id: string; command: string }[];

/** The rows from the line that introduces the command line on, read as one text (a long line wraps at 80 columns). */
const shownLine = (run: PtyRun) => {
  const rows = run.screen();
  const at = rows.findIndex((row) => row.startsWith('The command line'));
  return rows[at + 1] ?? '';
};

describe('guided mode in a terminal at 80 columns', { timeout: 90_000 }, () => {
  it('fleetctl alone: search "reboot", pick a device, see the line, confirm, and the reboot asks its own confirmation', async () => {
    expect(ALONE).toEqual([]);
    const before = (await commandsSent()).length;
    const run = guided(ALONE!);
    await chooseVerb(run, 'reboot', /^❯ devices reboot\s+Reboot/);
    await run.waitFor(/Device \(type a hardware id or name\)/);
    const capable = devices.filter((d) => d.capabilities.includes('reboot'));
    const chosen = capable[1]!;
    run.type(chosen.hardware_id);
    await run.waitFor(new RegExp(`^❯ ${chosen.hardware_id} `));
    run.type(KEY.enter);
    await run.waitFor(/Another one for hardware-ids\?/);
    run.type(KEY.enter);
    // the optional flags, grouped by purpose; Done is first, so Enter alone skips them
    await run.waitFor(/Optional flags, by purpose/);
    await run.waitFor(/── Which records/);
    expect(run.screen().some((row) => /^\s+--fleet-id <uuid>\s+every device of this fleet/.test(row))).toBe(true);
    expect(run.wrappedRows()).toBe(0);
    run.type(KEY.enter);
    await run.waitFor(/Run it now\?/);
    expect(shownLine(run)).toBe(`fleetctl devices reboot ${chosen.hardware_id}`);
    run.type(KEY.enter);
    // the command's own confirmation, as when typed
    await run.waitFor(/\(y\/N\)/);
    expect((await commandsSent()).length).toBe(before);
    run.type('y');
    run.type(KEY.enter);
    expect(await run.exit).toBe(0);
    const sent = (await commandsSent()).slice(before);
    expect(sent.map((c) => [c.hardware_id, c.command])).toEqual([[chosen.hardware_id, 'reboot']]);
  });

  it('fleetctl --guided: "devices get", a device picked, --json chosen among the output flags, the line run', async () => {
    expect(NAMED).toEqual(['--guided']);
    const run = guided(NAMED!);
    await chooseVerb(run, 'devices get', /^❯ devices get\s+Show one device/);
    await run.waitFor(/Device \(type a hardware id or name\)/);
    await run.waitFor(/^❯ HW-/);
    const chosen = devices[0]!;
    await run.waitFor(new RegExp(`^❯ ${chosen.hardware_id} `));
    run.type(KEY.enter);
    await run.waitFor(/── Output/);
    // Done, then --output, then --json (the heading between is not a choice)
    run.type(KEY.down);
    run.type(KEY.down);
    await run.waitFor(/^❯ --json /);
    run.type(KEY.enter);
    await run.waitFor(/^❯ --json\s+= on/);
    run.type(KEY.up);
    run.type(KEY.up);
    await run.waitFor(/^❯ Done: show the command line/);
    run.type(KEY.enter);
    await run.waitFor(/Run it now\?/);
    expect(shownLine(run)).toBe(`fleetctl devices get ${chosen.hardware_id} --json`);
    run.type(KEY.enter);
    await run.waitFor(new RegExp(`"id": "${chosen.id}"`));
    expect(await run.exit).toBe(0);
  });

  it('--json --guided, vehicles get: the vehicle from the picker the command declares, its id on the line after --json', async () => {
    const vehicles = JSON.parse((await h.cli(['vehicles', 'list', '--limit', '1', '-o', 'json'])).stdout) as { id: string }[];
    // a global flag given with --guided stays on the line
    const run = guided(['--json', '--guided']);
    await chooseVerb(run, 'vehicles get', /^❯ vehicles get /);
    await run.waitFor(/Vehicle \(type a name or plate\)/);
    // Enter before the first page of vehicles is listed would choose nothing
    await run.waitFor(/^❯ /);
    expect(run.wrappedRows()).toBe(0);
    run.type(KEY.enter);
    await run.waitFor(/Optional flags, by purpose/);
    run.type(KEY.enter);
    await run.waitFor(/Run it now\?/);
    expect(shownLine(run)).toBe(`fleetctl --json vehicles get ${vehicles[0]!.id}`);
    run.type(KEY.enter);
    await run.waitFor(new RegExp(`"id": "${vehicles[0]!.id}"`));
    expect(await run.exit).toBe(0);
  });

  it('declined: the line stays on the screen to copy, nothing runs, exit 0', async () => {
    const run = guided(['--guided']);
    await chooseVerb(run, 'fleets list', /^❯ fleets list /);
    await run.waitFor(/Optional flags, by purpose/);
    run.type(KEY.enter);
    await run.waitFor(/Run it now\?/);
    expect(shownLine(run)).toBe('fleetctl fleets list');
    run.type('n');
    run.type(KEY.enter);
    // read while the process runs: the terminal may not have drawn its last lines when it has exited
    await run.waitFor(/^Not run\.$/);
    expect(await run.exit).toBe(0);
  });

  it('Ctrl-C at a question: interrupted, exit 130, nothing run', async () => {
    const run = guided(['--guided']);
    await chooseVerb(run, 'reboot', /^❯ devices reboot /);
    await run.waitFor(/Device \(type a hardware id or name\)/);
    run.type(KEY.ctrlC);
    await run.waitFor(/^Interrupted\.$/);
    expect(await run.exit).toBe(130);
  });
});

describe('guided mode off a terminal', () => {
  it('fleetctl alone, piped: the help, as always', async () => {
    const result = await h.cli([]);
    expect(result.code).toBe(0);
    const help = result.stdout + result.stderr;
    expect(help).toMatch(/^Usage: fleetctl \[options\] \[command\]/);
    expect(help).toContain('--guided');
    expect(help).not.toContain('Command (type words');
  });

  it.each([[['--guided', '--no-input']], [['--guided']]])('fleetctl %j: one line, exit 2, nothing asked', async (args) => {
    const result = await h.cli(args);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(args.includes('--no-input') ? /--guided asks questions, which --no-input rules out/ : /--guided asks questions, which (CI|input and output not both on a terminal) rules out/);
  });

  it('--guided with a command: said to leave one of them out, exit 2', async () => {
    const result = await h.cli(['--guided', 'devices', 'list']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--guided asks for the command itself; leave out "devices list"');
  });

  it.each([
    [['devices', 'get', '--guided'], '"devices get"'],
    [['--sandbox', 'devices', 'get', 'abc', '--guided', '--json'], '"devices get abc"'],
  ])('%j: --guided after a command is refused in one line, exit 2, saying where it goes', async (args, command) => {
    const result = await h.cli(args);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr.trim()).toBe(`Error: --guided goes before any command, never after one: fleetctl --guided (global flags before it: fleetctl --sandbox --guided), or ${command} without it`);
  });

  it('--guided after -- is an operand of the command, not the flag', async () => {
    const result = await h.cli(['devices', 'get', '--', '--guided']);
    expect(result.stderr).not.toContain('--guided goes before');
  });

  it('--guided with an option the program does not have: named, exit 2', async () => {
    const result = await h.cli(['--guided', '--colour']);
    expect(result.code).toBe(2);
    expect(result.stderr.trim()).toBe('Error: unknown option "--colour" (the options before a command: fleetctl --help)');
  });
});
