// bin/fleetctl.js checks the Node.js version before it loads the bundle: an old Node gets one line saying what is
// needed and what it is, and exit code 14, not a TypeError from deep inside the bundle.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ExitCode } from '../../src/errors.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const check = (await import(pathToFileURL(path.join(root, 'bin/supported-node.js')).href)) as {
  nodeVersionProblem: (version: string) => string | undefined;
  NODE_UNSUPPORTED_EXIT_CODE: number;
};

/** Runs the real bin with process.versions.node made to read `version`, as an old Node would report it. */
function binOn(version: string, args: string[]) {
  const pretend = `Object.defineProperty(process, 'versions', { value: { ...process.versions, node: ${JSON.stringify(version)} } });`;
  return spawnSync(process.execPath, ['--import', `data:text/javascript,${encodeURIComponent(pretend)}`, path.join(root, 'bin/fleetctl.js'), ...args], {
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1' },
  });
}

describe('the Node.js version check', () => {
  it.each(['20.19.0', '20.20.2', 'v22.12.0', '22.23.3', '24.0.0', '24.21.0', '26.0.0', '26.10.0', '27.1.0'])('%s runs fleetctl', (version) => {
    expect(check.nodeVersionProblem(version)).toBeUndefined();
  });

  it.each(['14.21.3', '16.20.2', '18.20.8', '20.18.3', '20.0.0', '21.7.3', '22.11.0', '23.11.1', 'v0.12.18', 'not-a-version'])('%s is refused in one line naming both versions', (version) => {
    const problem = check.nodeVersionProblem(version);
    expect(problem).toBeDefined();
    expect(problem).not.toContain('\n');
    expect(problem).toContain('Node.js 20.19 or a later 20.x, 22.12 or a later 22.x, or 24 and later');
    expect(problem).toContain(`this is Node.js ${version.replace(/^v/, '')} (`);
  });

  it('its exit code is the documented one', () => {
    expect(check.NODE_UNSUPPORTED_EXIT_CODE).toBe(ExitCode.nodeUnsupported);
  });

  it.each([[['--version']], [['--sandbox', 'devices', 'list']], [['--help']]])('the bin on Node 18 %j: the line, code 14, nothing on stdout', (args) => {
    const result = binOn('18.20.8', args);
    expect(result.status, result.stderr).toBe(14);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(`Error: fleetctl needs Node.js 20.19 or a later 20.x, 22.12 or a later 22.x, or 24 and later; this is Node.js 18.20.8 (${process.execPath}). Install a supported Node.js and run fleetctl again.\n`);
  });

  it('the bin on a supported version runs as usual', () => {
    const result = binOn('22.12.0', ['--version']);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^fleetctl \d+\.\d+\.\d+ \(@fleetctl\/cli\) — Fleet and Telematics Developer API CLI\n$/);
  });

  it('the check loads nothing but itself: it runs before any module that needs a newer Node', () => {
    const bin = readFileSync(path.join(root, 'bin/fleetctl.js'), 'utf8');
    // what the bin requires at its top, before the check (the bundle comes after it, inside run())
    const topRequires = [...bin.matchAll(/^const .* = require\('([^']+)'\);$/gm)].map((m) => m[1]);
    expect(topRequires).toEqual(['./supported-node.js']);
    expect(bin).not.toMatch(/^import /m);
    expect(readFileSync(path.join(root, 'bin/supported-node.js'), 'utf8')).not.toMatch(/\bimport\b|\brequire\(/);
  });
});
