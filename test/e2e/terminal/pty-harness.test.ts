// The pseudo-terminal harness leaves nothing behind: a command still running when its session is closed, when
// its test ends, or when its test fails, is ended with every process of its group.
import { describe, expect, it } from 'vitest';
import { startPty, type PtySession } from '../../support/pty.js';

/** True while any process of the group the session's command leads is alive. */
function groupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return false;
    throw error;
  }
}

/** A command that runs until stopped: a foreground sandbox, on a free port. */
async function runningSandbox(): Promise<PtySession> {
  const session = startPty(['sandbox', '--port', '0', '--devices', '5'], { cols: 160, rows: 40 });
  await session.waitForText('Sandbox ready. Press Ctrl-C to stop.');
  expect(groupAlive(session.pid)).toBe(true);
  return session;
}

describe('pty harness clean-up', { timeout: 60_000 }, () => {
  it('close() in the middle of a run ends the command; no process of its group is left', async () => {
    const session = await runningSandbox();
    await session.close();
    expect(groupAlive(session.pid)).toBe(false);
  });

  // the next tests come in pairs: the first leaves its command running, the second checks it was ended
  let leftRunning = 0;

  it('a test that ends with its command still running ...', async () => {
    leftRunning = (await runningSandbox()).pid;
  });

  it('... has it ended when the test finishes', () => {
    expect(leftRunning).toBeGreaterThan(0);
    expect(groupAlive(leftRunning)).toBe(false);
  });

  let failedWhileRunning = 0;

  it.fails('a test that fails with its command still running ...', async () => {
    failedWhileRunning = (await runningSandbox()).pid;
    expect('the test').toBe('failed on purpose');
  });

  it('... has it ended all the same', () => {
    expect(failedWhileRunning).toBeGreaterThan(0);
    expect(groupAlive(failedWhileRunning)).toBe(false);
  });

  it('Ctrl-C reaches the command as it would from a keyboard: the sandbox stops by itself', async () => {
    const session = await runningSandbox();
    session.press('Ctrl-C');
    const exit = await session.waitForExit();
    expect(exit.signal).toBeUndefined();
    expect(groupAlive(session.pid)).toBe(false);
  });
});
