// The built CLI keeps V8's compiled code in the user's cache directory where Node has a compile cache (22.1+),
// and makes nothing on a Node without one (20). Runs bin/fleetctl.js: npm run build first.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import module from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { compileCacheDirectory } from '../../src/compile-cache.js';
import { suiteTempDir } from '../support/temp-dir.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const hasCompileCache = typeof (module as { enableCompileCache?: unknown }).enableCompileCache === 'function';
const work = suiteTempDir('fleetctl-compile-cache-');

function run(env: NodeJS.ProcessEnv): void {
  execFileSync(process.execPath, [path.join(root, 'bin/fleetctl.js'), 'config', 'list'], {
    encoding: 'utf8',
    env: { PATH: process.env.PATH, HOME: path.join(work, 'home'), FLEETCTL_CONFIG_DIR: path.join(work, 'config'), ...env },
  });
}

describe('compile cache', () => {
  it('lives in $XDG_CACHE_HOME/fleetctl, else ~/.cache/fleetctl; a relative XDG_CACHE_HOME is ignored', () => {
    expect(compileCacheDirectory({ XDG_CACHE_HOME: '/var/cache/u' })).toBe('/var/cache/u/fleetctl');
    expect(compileCacheDirectory({ XDG_CACHE_HOME: 'relative/cache' })).toBe(path.join(os.homedir(), '.cache/fleetctl'));
    expect(compileCacheDirectory({})).toBe(path.join(os.homedir(), '.cache/fleetctl'));
  });

  it(`is ${hasCompileCache ? 'written' : 'not made'} by a command on Node ${process.version}`, () => {
    const cache = path.join(work, 'xdg-cache');
    run({ XDG_CACHE_HOME: cache });
    const directory = path.join(cache, 'fleetctl');
    expect(existsSync(directory)).toBe(hasCompileCache);
    if (hasCompileCache) expect(readdirSync(directory).length).toBeGreaterThan(0);
  });

  it('NODE_DISABLE_COMPILE_CACHE=1 turns it off: nothing is made', () => {
    const cache = path.join(work, 'disabled-cache');
    run({ XDG_CACHE_HOME: cache, NODE_DISABLE_COMPILE_CACHE: '1' });
    expect(existsSync(path.join(cache, 'fleetctl'))).toBe(false);
  });

  it('a cache directory that cannot be made costs nothing but time: the command still succeeds', () => {
    const blocked = path.join(work, 'a-file');
    execFileSync('touch', [blocked]);
    expect(() => run({ XDG_CACHE_HOME: blocked })).not.toThrow();
  });

  // the cache holds what V8 compiled with the chunk: a method is compiled only when called, on every run
  it('can keep the bundled CommonJS modules: each body is a parenthesized function expression, compiled with its chunk', () => {
    const chunks = readdirSync(path.join(root, 'dist/chunks')).filter((name) => name.endsWith('.js'));
    const code = chunks.map((name) => readFileSync(path.join(root, 'dist/chunks', name), 'utf8')).join('\n');
    expect(code).not.toMatch(/"[^"\n]+\.c?js"\(exports\d*, module\d*\) \{/);
    expect(code.match(/"node_modules\/undici\/[^"\n]+\.js": \(function\(exports\d*, module\d*\) \{/g)?.length).toBeGreaterThan(20);
  });
});

