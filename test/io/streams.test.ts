// IOStreams: colour, prompting and spinners are decided here, from the streams and the environment.
import { describe, expect, it, vi } from 'vitest';
import { IOStreams } from '../../src/io/streams.js';
import { confirmOrRequireYes, type Prompter } from '../../src/io/prompter.js';

describe('colour', () => {
  it.each([
    [true, {}, false, true],
    [false, {}, false, false],
    [false, { FORCE_COLOR: '1' }, false, true],
    [true, { NO_COLOR: '1' }, false, false],
    [true, { TERM: 'dumb' }, false, false],
    [true, {}, true, false],
    [true, { NO_COLOR: '' }, false, true],
    [true, { CI: 'true' }, false, false],
    [true, { CI: 'true', FORCE_COLOR: '1' }, false, true],
    [true, { CI: 'false' }, false, true],
  ])('tty %s, env %j, --no-color %s → colour %s', (tty, env, noColor, expected) => {
    const io = IOStreams.forTest({ tty, env });
    io.noColor = noColor;
    expect(io.colorEnabled()).toBe(expected);
    expect(io.colorEnabledErr()).toBe(expected);
  });
});

describe('prompting and progress', () => {
  it('prompts only on a terminal, never with --no-input or CI', () => {
    expect(IOStreams.forTest({ tty: true }).canPrompt()).toBe(true);
    expect(IOStreams.forTest({ tty: false }).canPrompt()).toBe(false);
    expect(IOStreams.forTest({ tty: true, noInput: true }).canPrompt()).toBe(false);
    expect(IOStreams.forTest({ tty: true, env: { CI: 'true' } }).canPrompt()).toBe(false);
    expect(IOStreams.forTest({ tty: true, env: { CI: 'false' } }).canPrompt()).toBe(true);
  });

  it('spinners only on a terminal, not in CI or on TERM=dumb', () => {
    expect(IOStreams.forTest({ tty: true }).progressEnabled()).toBe(true);
    expect(IOStreams.forTest({ tty: false }).progressEnabled()).toBe(false);
    expect(IOStreams.forTest({ tty: true, env: { CI: '1' } }).progressEnabled()).toBe(false);
    expect(IOStreams.forTest({ tty: true, env: { TERM: 'dumb' } }).progressEnabled()).toBe(false);
  });

  it('info() writes a line to stderr, never stdout', () => {
    const io = IOStreams.forTest();
    io.info('hello');
    expect(io.stderr()).toBe('hello\n');
    expect(io.stdout()).toBe('');
  });
});

describe('confirmOrRequireYes', () => {
  const prompter = (answer: boolean): Prompter & { asked: string[] } => {
    const asked: string[] = [];
    return {
      asked,
      input: async () => '',
      password: async () => '',
      confirm: async (question) => (asked.push(question), answer),
      search: async () => {
        throw new Error('must not search');
      },
      checkbox: async () => {
        throw new Error('must not show a checkbox');
      },
      select: async () => {
        throw new Error('must not show a select');
      },
    };
  };
  const opts = { question: 'Reboot 3 devices?', refusal: 'not rebooting' };

  it('--yes skips the question', async () => {
    const p = prompter(false);
    await confirmOrRequireYes({ io: IOStreams.forTest({ tty: true }), prompter: p }, { ...opts, yes: true });
    expect(p.asked).toEqual([]);
  });

  it('asks on a terminal; no is a usage error', async () => {
    const p = prompter(false);
    await expect(confirmOrRequireYes({ io: IOStreams.forTest({ tty: true }), prompter: p }, { ...opts, yes: undefined })).rejects.toMatchObject({
      exitCode: 2,
      message: 'not rebooting: not confirmed',
    });
    expect(p.asked).toEqual(['Reboot 3 devices?']);
  });

  it('without a terminal requires --yes', async () => {
    const p = prompter(true);
    await expect(confirmOrRequireYes({ io: IOStreams.forTest({ tty: false }), prompter: p }, { ...opts, yes: undefined })).rejects.toMatchObject({
      exitCode: 2,
      hint: expect.stringContaining('--yes'),
    });
    expect(p.asked).toEqual([]);
  });
});

describe('standard input', () => {
  // process.stdin is a stream made on first use: a command that never reads it (most) does not pay for it
  it('is made when first read, not with the streams, and once', () => {
    const stdin = vi.spyOn(process, 'stdin', 'get');
    try {
      const io = IOStreams.fromProcess({});
      expect(stdin).not.toHaveBeenCalled();
      expect(io.in).toBe(process.stdin);
      expect(io.in).toBe(io.in);
      // the streams' one read, and the test's own (process.stdin above)
      expect(stdin).toHaveBeenCalledTimes(2);
    } finally {
      stdin.mockRestore();
    }
  });
});

