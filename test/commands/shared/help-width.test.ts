// Help that fits: at any width from 60 to 200 columns, no line of any help screen (usage, options, the text after
// them, examples) is wider than the terminal.
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../../src/main.js';
import { createDeps } from '../../../src/factory.js';
import { IOStreams } from '../../../src/io/streams.js';
import { wrapCommand } from '../../../src/commands/shared/help-layout.js';

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
    const wrapped = wrapCommand("$ fleetctl devices list --all --jq 'select(.capabilities | index(\"reboot\") | not) | .hardware_id'", 50, '  ');
    expect(wrapped.split('\n').every((line) => line.length <= 50 || line.includes("'select"))).toBe(true);
    expect(wrapped.replace(/ \\\n {4}/g, ' ')).toBe("  $ fleetctl devices list --all --jq 'select(.capabilities | index(\"reboot\") | not) | .hardware_id'");
  });
});
