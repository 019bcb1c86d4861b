// The search and checkbox prompts through the real prompt library, fed keystrokes on a stream.
import { describe, expect, it } from 'vitest';
import type { PassThrough } from 'node:stream';
import { createPrompter } from '../../src/io/prompter.js';
import { IOStreams } from '../../src/io/streams.js';
import { ApiError, CancelledError } from '../../src/errors.js';

const DOWN = '\u001b[B';
const ENTER = '\r';

function terminal() {
  const io = IOStreams.forTest({ tty: true });
  const keys = (text: string) => (io.in as PassThrough).write(text);
  return { io, prompter: createPrompter(io), keys };
}

/** What the prompt wrote, without its colours and cursor moves. */
const plain = (io: ReturnType<typeof terminal>['io']) => io.stderr().replace(/\u001b\[[0-9;]*[A-Za-z]/g, '');

/** Resolves once the prompt has drawn text matching the pattern. */
async function drawn(io: ReturnType<typeof terminal>['io'], pattern: RegExp): Promise<void> {
  for (let i = 0; i < 200 && !pattern.test(plain(io)); i++) await new Promise((resolve) => setTimeout(resolve, 10));
  expect(plain(io)).toMatch(pattern);
}

describe('prompter.search', () => {
  it('asks the source again as the operator types; arrows and Enter pick; separators are lines, not choices', async () => {
    const { io, prompter, keys } = terminal();
    const terms: string[] = [];
    const answer = prompter.search('Device', {
      source: async (term) => {
        terms.push(term);
        const all = ['HW-1 alpha', 'HW-2 beta', 'HW-3 beta'].filter((name) => name.includes(term));
        return [...all.map((name) => ({ value: name.slice(0, 4), name })), { separator: '(more as you type)' }];
      },
    });
    await drawn(io, /HW-3 beta/);
    keys('beta');
    // the list for "beta" is drawn once the typing pauses
    await drawn(io, /Device beta\n❯ HW-2 beta/);
    keys(DOWN);
    keys(DOWN);
    keys(ENTER);
    await expect(answer).resolves.toBe('HW-3');
    expect(terms[0]).toBe('');
    expect(terms.at(-1)).toBe('beta');
    // the prompt went to stderr; stdout holds data only
    expect(io.stdout()).toBe('');
    expect(plain(io)).toContain('(more as you type)');
  });

  it('a source that fails ends the prompt with its own error (its exit code, not a hung prompt)', async () => {
    const { prompter } = terminal();
    const denied = new ApiError({ status: 403, problem: { status: 403, code: 'auth.insufficient_scope', detail: 'no' } });
    await expect(prompter.search('Device', { source: () => Promise.reject(denied) })).rejects.toBe(denied);
  });

  it('Ctrl-C is an interruption (exit 130)', async () => {
    const { io, prompter, keys } = terminal();
    const answer = prompter.search('Device', { source: async () => [{ value: 1, name: 'one' }] });
    await drawn(io, /one/);
    keys('\u0003');
    await expect(answer).rejects.toBeInstanceOf(CancelledError);
  });

  it('refuses where it may not prompt', async () => {
    const io = IOStreams.forTest({ tty: false });
    await expect(createPrompter(io).search('Device', { source: async () => [] })).rejects.toThrow('cannot prompt: input is not interactive');
  });
});

describe('prompter.checkbox', () => {
  it('space ticks, Enter answers; a disabled choice is skipped by the cursor', async () => {
    const { io, prompter, keys } = terminal();
    const answer = prompter.checkbox('Devices', {
      choices: [
        { value: 'HW-1', name: 'HW-1 reboot' },
        { value: 'HW-2', name: 'HW-2 wake_up', disabled: '(no reboot)' },
        { value: 'HW-3', name: 'HW-3 reboot', short: 'HW-3' },
      ],
    });
    await drawn(io, /HW-3 reboot/);
    expect(plain(io)).toContain('HW-2 wake_up (no reboot)');
    keys(' ');
    keys(DOWN);
    keys(' ');
    keys(ENTER);
    await expect(answer).resolves.toEqual(['HW-1', 'HW-3']);
  });

  const fleet = [
    { value: 'HW-1', name: 'HW-1 Van alpha reboot' },
    { value: 'HW-2', name: 'HW-2 Truck bravo reboot' },
    { value: 'HW-3', name: 'HW-3 Van charlie reboot' },
  ];

  it('typing filters the list; a and i are letters of the filter, never tick-all or invert', async () => {
    const { io, prompter, keys } = terminal();
    const answer = prompter.checkbox('Devices', { choices: fleet });
    await drawn(io, /HW-3 Van charlie/);
    keys('a');
    keys('i');
    // "ai" is in no line: nothing shown, nothing ticked
    await drawn(io, /nothing matches "ai"/);
    keys('\u007f');
    keys('\u007f');
    keys('charlie');
    await drawn(io, /0 ticked/);
    keys(' ');
    keys(ENTER);
    await expect(answer).resolves.toEqual(['HW-3']);
  });

  it('ticking every line shown is its own labelled line, reached on purpose; Enter with nothing ticked says so', async () => {
    const { io, prompter, keys } = terminal();
    const answer = prompter.checkbox('Devices', { choices: fleet });
    await drawn(io, /Tick every device shown \(3\)/);
    keys(ENTER);
    await drawn(io, /tick at least one line/);
    keys('van');
    await drawn(io, /Tick every device shown \(2\)/);
    keys('\u001b[A');
    keys(' ');
    await drawn(io, /2 ticked/);
    keys(ENTER);
    await expect(answer).resolves.toEqual(['HW-1', 'HW-3']);
  });
});
