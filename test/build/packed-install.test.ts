// Installing the packed tarball says nothing about install scripts: the package has none a user's npm runs or
// warns about (npm 11 lists a `prepare` among "install scripts not yet covered by allowScripts"). A checkout still
// builds on `npm ci` (the root-only `dependencies` script) and on `npm pack` (prepack). Needs `npm run build` first.
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../support/temp-dir.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const INSTALL_SCRIPTS = ['preinstall', 'install', 'postinstall', 'prepare'];

describe('the packed tarball', () => {
  it('declares no script an install runs: the build runs where the package is made, not where it is installed', () => {
    const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(Object.keys(pkg.scripts).filter((name) => INSTALL_SCRIPTS.includes(name))).toEqual([]);
    expect(pkg.scripts.dependencies).toBe('npm run build');
    expect(pkg.scripts.prepack).toBe('npm run build');
  });

  it('installs without npm warning about install scripts, and runs', { timeout: 180_000 }, () => {
    const dir = tempDir('fleetctl-packed-');
    // dist/ is built: packing must not build it again
    const tarball = execFileSync('npm', ['pack', '--ignore-scripts', '--silent', '--pack-destination', dir], { cwd: root, encoding: 'utf8' }).trim();
    execFileSync('npm', ['init', '-y'], { cwd: dir, stdio: 'ignore' });
    // its two dependencies from npm's cache when they are there (npm ci put them there)
    const install = spawnSync('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', `./${tarball}`], { cwd: dir, encoding: 'utf8' });
    expect(install.status, install.stderr).toBe(0);
    expect(`${install.stdout}${install.stderr}`).not.toMatch(/install-scripts|allowScripts/);
    const version = spawnSync(path.join(dir, 'node_modules/.bin/fleetctl'), ['--version'], { encoding: 'utf8' });
    expect(version.stdout).toMatch(/^fleetctl \d+\.\d+\.\d+ /);
  });
});
