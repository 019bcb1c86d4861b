// Temporary directories for tests, each removed when what made it finishes, pass or fail: a test's own through
// onTestFinished, a file's or a describe block's through afterAll. Tests share a worker (isolate: false) and
// the machine's /tmp, so a directory left behind is left for good.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, onTestFinished } from 'vitest';

function makeTempDir(prefix: string): string {
  return mkdtempSync(path.join(os.tmpdir(), prefix));
}

function removeTempDir(dir: string): void {
  // force: a test may have removed it itself; maxRetries: a child process may still be closing a file in it
  rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
}

/** A new empty directory (its name starts with prefix), removed when the current test finishes. Inside a test only. */
export function tempDir(prefix: string): string {
  const dir = makeTempDir(prefix);
  onTestFinished(() => removeTempDir(dir));
  return dir;
}

/**
 * A directory shared by the tests of a file or a describe block, removed after the last of them (afterAll).
 * Call it at the top of the file or in the describe block's body, not in a hook or a test: afterAll must be
 * registered while the tests are being collected.
 */
export function suiteTempDir(prefix: string): string {
  const dir = makeTempDir(prefix);
  afterAll(() => removeTempDir(dir));
  return dir;
}
