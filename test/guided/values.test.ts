// One value of the guided mode, asked as the command would: a fixed word from its list (or left out), several words
// ticked and joined by commas, a date checked by the command's own rule before it goes on the line, the picker a
// verb declares, and a typed value that may be left empty.
import { Command, Option } from 'commander';
import { describe, expect, it } from 'vitest';
import { askValue, argumentValue, optionValue, type ValueDeps } from '../../src/guided/values.js';
import { declarePickers } from '../../src/commands/shared/pick-list.js';
import { completeValues } from '../../src/completion/values.js';
import { IOStreams } from '../../src/io/streams.js';
import type { Prompter, SearchItem } from '../../src/io/prompter.js';

interface Asked {
  prompt: string;
  message: string;
  lines?: string[];
  verdicts?: (true | string)[];
}

/** A person who answers each question with the next answer, and whose questions are kept. */
function person(answers: unknown[]): { deps: ValueDeps; asked: Asked[] } {
  const asked: Asked[] = [];
  const next = <T>(): T => {
    if (answers.length === 0) throw new Error('asked more than was scripted');
    return answers.shift() as T;
  };
  const lines = (items: SearchItem<unknown>[]) => items.map((item) => ('separator' in item ? item.separator : item.name));
  const prompter: Prompter = {
    input: async (message, opts) => {
      // the person first types what the check refuses, if scripted so: the prompt asks again
      const typed = next<string[]>();
      asked.push({ prompt: 'input', message, verdicts: typed.map((value) => opts?.validate?.(value) ?? true) });
      return typed.at(-1)!;
    },
    password: async () => next(),
    confirm: async (message) => (asked.push({ prompt: 'confirm', message }), next()),
    search: async (message) => (asked.push({ prompt: 'search', message }), next()),
    checkbox: async (message, opts) => (asked.push({ prompt: 'checkbox', message, lines: lines(opts.choices) }), next()),
    select: async (message, opts) => (asked.push({ prompt: 'select', message, lines: lines(opts.choices) }), next()),
  };
  const unused = (): never => {
    throw new Error('not needed by this question');
  };
  const deps: ValueDeps = { io: IOStreams.forTest({ tty: true }), prompter, clock: { now: () => new Date('2024-06-01T12:00:00Z'), sleep: unused }, api: unused, config: unused, output: unused, derive: unused, env: {} };
  return { deps, asked };
}

function verb(): Command {
  const command = new Command('set')
    .argument('<type>', 'the event type')
    .argument('[id]', 'the vehicle')
    .addOption(new Option('--topics <list>', 'topics'))
    .option('--since <time>', 'from this long ago')
    .option('--note <text>', 'a note');
  completeValues(command, { type: { words: ['alarms', 'events'] }, '--topics': { words: ['alarms', 'events', 'media'], commaList: true } });
  return declarePickers(command, { id: async () => 'picked-vehicle-id' });
}

const option = (command: Command, long: string) => optionValue(command.options.find((o) => o.long === long)!);

describe('a value asked by the guided mode', () => {
  it('a required word: chosen from its list, nothing to leave it out with', async () => {
    const { deps, asked } = person(['events']);
    expect(await askValue(deps, argumentValue(verb().registeredArguments[0]!), [])).toEqual(['events']);
    expect(asked).toEqual([{ prompt: 'select', message: 'type: the event type', lines: ['alarms', 'events'] }]);
  });

  it('an optional word left out: no word on the line', async () => {
    const { deps, asked } = person(['']);
    expect(await askValue(deps, { ...option(verb(), '--topics'), values: { words: ['alarms', 'events'] } }, [])).toEqual([]);
    expect(asked[0]!.lines).toEqual(['(leave it out)', 'alarms', 'events']);
  });

  it('several words of a comma list: ticked, joined by commas', async () => {
    const { deps, asked } = person([['alarms', 'media']]);
    expect(await askValue(deps, option(verb(), '--topics'), [])).toEqual(['alarms,media']);
    expect(asked[0]!.prompt).toBe('checkbox');
  });

  it("a date: its forms in the question, a date the command would refuse asked again, the answer as typed", async () => {
    const { deps, asked } = person([['yesterday', '2024-05-01T08:00', '7d']]);
    expect(await askValue(deps, option(verb(), '--since'), [])).toEqual(['7d']);
    expect(asked[0]!.message).toMatch(/^--since: an ISO 8601 date-time such as .*, or a relative time such as 30m, 24h, 7d \(empty: leave it out\)$/);
    const [word, noZone, relative] = asked[0]!.verdicts!;
    expect(word).toMatch(/--since must be an ISO 8601 date-time/);
    expect(noZone).toMatch(/has no time zone/);
    expect(relative).toBe(true);
  });

  it('the picker the verb declares for an argument: its id, nothing typed', async () => {
    const { deps, asked } = person([]);
    expect(await askValue(deps, argumentValue(verb().registeredArguments[1]!), [])).toEqual(['picked-vehicle-id']);
    expect(asked).toEqual([]);
  });

  it('a free value: typed, empty leaves it out', async () => {
    const { deps } = person([['  '], ['on call']]);
    expect(await askValue(deps, option(verb(), '--note'), [])).toEqual([]);
    expect(await askValue(deps, option(verb(), '--note'), [])).toEqual(['on call']);
  });
});
