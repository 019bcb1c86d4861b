// Help that fits: at any width from 60 to 200 columns, no line of any help screen (usage, options, the text after
// them, examples) is wider than the terminal.
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../../src/main.js';
import { createDeps } from '../../../src/factory.js';
import { IOStreams } from '../../../src/io/streams.js';
import { wrapCommand } from '../../../src/commands/shared/help-layout.js';
import { main } from '../../../src/main.js';

const program = await buildProgram(createDeps({ io: IOStreams.forTest(), env: {} }, () => ({})));

function everyCommand(command: Command, out: Command[] = []): Command[] {
  out.push(command);
  for (const sub of command.commands) everyCommand(sub, out);
  return out;
}

/** The help screen of a command as `--help` prints it, at a terminal of `width` columns. */
function helpAt(command: Command, width: number): string {
  let text = '';
  command.configureOutput({ writeOut: (s) => (text += s), getOutHelpWidth: () => width, getOutHasColors: () => false });
  command.outputHelp();
  return text;
}

const name = (command: Command): string => (command.parent ? `${name(command.parent)} ${command.name()}` : command.name());

describe('help at any width', () => {
  const commands = everyCommand(program);
  it('covers every command', () => expect(commands.length).toBeGreaterThan(60));
  it.each([60, 80, 120, 160, 200])('at %i columns, no line of any help is wider', (width) => {
    const wide = commands.flatMap((command) =>
      helpAt(command, width)
        .split('\n')
        .filter((line) => [...line].length > width)
        // an identifier longer than the room (a 62-character event id at 60 columns) is never cut or broken: the
        // terminal wraps it, whole
        .filter((line) => !/^\s*\S+$/.test(line) || line.trim().length <= width - 4)
        .map((line) => `${name(command)}: ${line}`),
    );
    expect(wide).toEqual([]);
  });

  it('global options are listed once, by name, in every verb help', () => {
    const help = helpAt(commands.find((c) => name(c) === 'fleetctl devices list')!, 80);
    expect(help.match(/Global options:/g)).toHaveLength(1);
    expect(help).toMatch(/Global options: --profile, --base-url,/);
    expect(help).not.toContain('Global Options:');
  });

  it('a long example is continued with \\ at spaces outside single quotes, so it still runs when pasted', () => {
    const wrapped = wrapCommand("$ fleetctl devices list --all --columns hardware_id,name --sort 'name,-last_seen_at'", 50, '  ');
    expect(wrapped.split('\n').every((line) => line.length <= 50)).toBe(true);
    expect(wrapped.replace(/ \\\n {4}/g, ' ')).toBe("  $ fleetctl devices list --all --columns hardware_id,name --sort 'name,-last_seen_at'");
  });

  it('a jq program too long for the line breaks at its spaces inside the quotes (jq reads a line break as one), never inside its strings', () => {
    const wrapped = wrapCommand('$ fleetctl devices list --all --jq \'select(.capabilities | index("reboot") | not) | "\\(.hardware_id) cannot reboot"\'', 40, '  ');
    expect(wrapped.split('\n').every((line) => line.length <= 40)).toBe(true);
    expect(wrapped).toContain('"\\(.hardware_id) cannot reboot"');
    expect(wrapped.replace(/ \\\n {4}/g, ' ').replace(/\n +/g, ' ')).toBe('  $ fleetctl devices list --all --jq \'select(.capabilities | index("reboot") | not) | "\\(.hardware_id) cannot reboot"\'');
  });
});

describe('COLUMNS when stdout is not a terminal', () => {
  async function helpPiped(env: Record<string, string>): Promise<string> {
    const io = IOStreams.forTest({ tty: false, env });
    expect(await main(['node', 'fleetctl', 'devices', '--help'], { io, env, signal: new AbortController().signal })).toBe(0);
    return io.stdout();
  }

  it('`COLUMNS=60 fleetctl devices --help | less`: laid out for 60 columns', async () => {
    const lines = (await helpPiped({ COLUMNS: '60' })).split('\n');
    expect(lines.filter((line) => line.length > 60)).toEqual([]);
    expect(lines.some((line) => line.length > 50)).toBe(true);
  });

  it('without COLUMNS (or with one that is no width), 80 as before', async () => {
    for (const env of [{}, { COLUMNS: 'wide' }] as Record<string, string>[]) {
      const lines = (await helpPiped(env)).split('\n');
      expect(lines.filter((line) => line.length > 80)).toEqual([]);
      expect(lines.some((line) => line.length > 70)).toBe(true);
    }
  });
});
