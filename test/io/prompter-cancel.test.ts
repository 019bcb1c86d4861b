import { describe, expect, it } from 'vitest';
import { asked } from '../../src/io/prompter.js';
import { CancelledError, ExitCode } from '../../src/errors.js';

describe('Ctrl-C at a prompt', () => {
  it('is an interruption (exit 130), not an unexpected failure', async () => {
    const exitPrompt = Object.assign(new Error('User force closed the prompt with SIGINT'), { name: 'ExitPromptError' });
    const failure = await asked(Promise.reject(exitPrompt)).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(CancelledError);
    expect((failure as CancelledError).exitCode).toBe(ExitCode.interrupted);
  });

  it('passes answers and other errors through', async () => {
    await expect(asked(Promise.resolve('yes'))).resolves.toBe('yes');
    await expect(asked(Promise.reject(new TypeError('boom')))).rejects.toThrow(TypeError);
  });
});
