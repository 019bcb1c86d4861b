// The temporary directories of tests: removed when what made them finishes, pass or fail, and made through the
// helper, so that none is left behind in /tmp (a run left about 30 before it).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { suiteTempDir, tempDir } from './temp-dir.js';

const root = path.resolve(import.meta.dirname, '../..');

/**
 * Files that make temporary directories themselves and remove them in a hook or a finally (many keep the
 * directory in a variable shared by afterEach). This list may only shrink: new code uses tempDir or suiteTempDir.
 */
const REMOVE_THEIR_OWN = new Set([
  'test/build/helper-rewrites.test.ts',
  'test/build/startup.test.ts',
  'test/commands/sandbox/start.test.ts',
  'test/completion/scripts.test.ts',
  'test/e2e/cli-sandbox.ts',
  'test/e2e/completion-shells.test.ts',
  'test/e2e/devices.test.ts',
  'test/e2e/embedded.test.ts',
  'test/e2e/examples.ts',
  'test/e2e/harness.ts',
  'test/e2e/pipes.test.ts',
  'test/e2e/proxy-tls.test.ts',
  'test/e2e/readme-ci-recipe.test.ts',
  'test/e2e/sandbox-scenarios.test.ts',
  'test/e2e/sandbox-shared.test.ts',
  'test/e2e/sandbox-start-errors.test.ts',
  'test/e2e/secret-service.test.ts',
  'test/e2e/signals.test.ts',
  'test/e2e/spinner-pty.test.ts',
  'test/e2e/stderr-closed.test.ts',
  'test/e2e/terminal/tables.test.ts',
  'test/fuzz/hostile-input.test.ts',
  'test/fuzz/reproductions.test.ts',
  'test/fuzz/run-case.ts',
  'test/http/dispatcher.test.ts',
  'test/io/directories.test.ts',
  'test/openapi/operations.test.ts',
  'test/sandbox/persistence.test.ts',
  'test/support/second-service/harness.ts',
]);
const HELPER = new Set(['test/support/temp-dir.ts', 'test/support/temp-dir.test.ts']);

describe('tempDir', () => {
  let passed = '';
  let failed = '';

  it('makes an empty directory whose name starts with the prefix', () => {
    passed = tempDir('fleetctl-temp-dir-');
    expect(path.basename(passed)).toMatch(/^fleetctl-temp-dir-.{6}$/);
    expect(readdirSync(passed)).toEqual([]);
  });

  it.fails('(fails on purpose: its directory must go all the same)', () => {
    failed = tempDir('fleetctl-temp-dir-');
    throw new Error('failing on purpose');
  });

  it('removes each when its test has finished, passed or failed', () => {
    expect([passed, failed].every((dir) => dir !== '')).toBe(true);
    expect([passed, failed].filter((dir) => existsSync(dir))).toEqual([]);
  });
});

let shared = '';
describe('suiteTempDir', () => {
  shared = suiteTempDir('fleetctl-temp-dir-');

  it('keeps the directory for the tests of its block', () => {
    expect(existsSync(shared)).toBe(true);
  });
});

describe('after the block of a suiteTempDir', () => {
  it('the directory is gone', () => {
    expect(shared).not.toBe('');
    expect(existsSync(shared)).toBe(false);
  });
});

describe('test code', () => {
  it('makes its temporary directories through test/support/temp-dir.ts', () => {
    const files = readdirSync(path.join(root, 'test'), { recursive: true, encoding: 'utf8' })
      .filter((file) => /\.(ts|mjs|js)$/.test(file))
      .map((file) => `test/${file.split(path.sep).join('/')}`);
    const makers = files.filter((file) => !HELPER.has(file) && /\bmkdtemp(Sync)?\s*\(/.test(readFileSync(path.join(root, file), 'utf8')));
    expect(
      makers.filter((file) => !REMOVE_THEIR_OWN.has(file)),
      'these call mkdtemp: use tempDir(prefix) in a test or suiteTempDir(prefix) in a file or describe body (test/support/temp-dir.ts), which remove the directory pass or fail',
    ).toEqual([]);
    expect([...REMOVE_THEIR_OWN].filter((file) => !makers.includes(file)), 'no longer call mkdtemp: take them off REMOVE_THEIR_OWN').toEqual([]);
  });
});
