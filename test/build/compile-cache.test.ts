// The built CLI keeps V8's compiled code of the bundle in the user's cache directory (src/compile-cache.ts): taken
// at the end of a run (as compiled on Node 20), written when a file had none or the run is of a new kind, read
// back by the next run. Runs bin/fleetctl.js: npm run build first.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';
import { parseAst } from 'rollup/parseAst';
import { describe, expect, it } from 'vitest';
import { codeDirectory, compileCacheDirectory, MAX_SHAPES, runShape, shapeKey, STALE_AFTER_MS } from '../../src/compile-cache.js';
import { suiteTempDir, tempDir } from '../support/temp-dir.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const work = suiteTempDir('fleetctl-compile-cache-');
/** V8 11 (Node 20) keeps the code as compiled, and only of a file that had none. */
const takenAfterRun = !process.versions.v8.startsWith('11.');

function run(args: string[], env: NodeJS.ProcessEnv): string {
  return execFileSync(process.execPath, [path.join(root, 'bin/fleetctl.js'), ...args], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { PATH: process.env.PATH, HOME: path.join(work, 'home'), FLEETCTL_CONFIG_DIR: path.join(work, 'config'), ...env },
  });
}

/** Each file of the folder, with the identity of its current version (a replaced file is a new inode). */
function snapshot(directory: string): Map<string, number> {
  return new Map(readdirSync(directory).map((name) => [name, statSync(path.join(directory, name)).ino]));
}

const codeFiles = (directory: string) => readdirSync(directory).filter((name) => name.endsWith('.code'));

/** A file of code as the cache writes one: the code's checksum, then the code. */
function withChecksum(code: Buffer): Buffer {
  const header = Buffer.alloc(4);
  header.writeUInt32BE(zlib.crc32(code));
  return Buffer.concat([header, code]);
}

describe('compile cache', () => {
  it('lives in $XDG_CACHE_HOME/fleetctl, else ~/.cache/fleetctl; a relative XDG_CACHE_HOME is ignored', () => {
    expect(compileCacheDirectory({ XDG_CACHE_HOME: '/var/cache/u' })).toBe('/var/cache/u/fleetctl');
    expect(compileCacheDirectory({ XDG_CACHE_HOME: 'relative/cache' })).toBe(path.join(os.homedir(), '.cache/fleetctl'));
    expect(compileCacheDirectory({})).toBe(path.join(os.homedir(), '.cache/fleetctl'));
  });

  it('keeps the code of each Node version apart: V8 refuses code of another', () => {
    const env = { XDG_CACHE_HOME: '/c' };
    expect(codeDirectory(env, { version: 'v22.23.3', arch: 'x64' } as NodeJS.Process)).toBe('/c/fleetctl/code-v22.23.3-x64');
    expect(codeDirectory(env, { version: 'v24.21.0', arch: 'arm64' } as NodeJS.Process)).toBe('/c/fleetctl/code-v24.21.0-arm64');
  });

  describe('the kind of a run', () => {
    it('is the command words, the flag names and the output format, whatever the ids, keys and paths', () => {
      const reboot = (hw: string, key: string) => runShape(['devices', 'reboot', hw, '--yes', '--idempotency-key', key, '-o', 'json']);
      expect(reboot('HW-000001', 'k1')).toBe('devices reboot --idempotency-key --yes -o -o=json');
      expect(reboot('HW-000002', 'job-42')).toBe(reboot('HW-000001', 'k1'));
      expect(runShape(['devices', 'get', '2e7f6c1f-1dae-45ed-a366-adae182c1269'])).toBe(runShape(['devices', 'get', '9b0c7e4e-0f0e-4b8e-9a51-2f5c1d7e8a10']));
      expect(runShape(['devices', 'list', '--output=csv'])).toBe('devices list --output --output=csv');
      expect(runShape(['devices', 'list', '-ocsv'])).toBe('devices list -o=csv -ocsv');
    });

    it('tells apart what runs other code: another verb, another format, another flag', () => {
      const kinds = [
        ['devices', 'get', 'x-1'],
        ['devices', 'list'],
        ['devices', 'list', '-o', 'json'],
        ['devices', 'list', '-o', 'csv'],
        ['devices', 'list', '--all'],
      ].map(runShape);
      expect(new Set(kinds).size).toBe(kinds.length);
    });

    it('ends at --: what follows is operands', () => {
      expect(runShape(['api', 'get', '--', '--not-a-flag'])).toBe('api get');
    });
  });

  it('a command writes the code of the files it loaded; a second of the same kind reads it and writes nothing', () => {
    const env = { XDG_CACHE_HOME: path.join(work, 'same-kind') };
    const directory = codeDirectory(env);
    const first = run(['config', 'list'], env);
    const written = snapshot(directory);
    expect(codeFiles(directory).some((name) => /^main-[0-9a-f]+\.code$/.test(name))).toBe(true);
    expect(codeFiles(directory).some((name) => /^core-.+\.code$/.test(name))).toBe(true);
    // code V8 refused would be written again (a new inode): the same files are there, untouched
    expect(run(['config', 'list'], env)).toBe(first);
    expect(snapshot(directory)).toEqual(written);
  });

  it(`a run of a new kind ${takenAfterRun ? 'writes the code again, with what it compiled' : 'writes nothing on Node 20: the code is kept as compiled'}`, () => {
    const env = { XDG_CACHE_HOME: path.join(work, 'new-kind') };
    const directory = codeDirectory(env);
    run(['config', 'list'], env);
    const before = snapshot(directory);
    const main = codeFiles(directory).find((name) => name.startsWith('main-'))!;
    run(['config', 'list', '-o', 'json'], env);
    expect(snapshot(directory).get(main) !== before.get(main)).toBe(takenAfterRun);
    if (!takenAfterRun) return;
    const shapes = readFileSync(path.join(directory, `shapes-${main.replace(/\.code$/, '')}`), 'utf8');
    // kept by their checksums: no word of a command line is written down
    expect(shapes.split('\n').filter(Boolean)).toEqual([shapeKey('config list'), shapeKey('config list -o -o=json')]);
    expect(shapes).not.toContain('config');
    // and the kind is learnt: its next run writes nothing
    const learnt = snapshot(directory);
    run(['config', 'list', '-o', 'json'], env);
    expect(snapshot(directory)).toEqual(learnt);
  });

  it(`past ${MAX_SHAPES} kinds of run for a build, a new kind writes nothing`, () => {
    const env = { XDG_CACHE_HOME: path.join(work, 'many-kinds') };
    const directory = codeDirectory(env);
    run(['config', 'list'], env);
    const main = `main-${zlib.crc32(readFileSync(path.join(root, 'dist/main.js'), 'utf8')).toString(16)}`;
    const kinds = Array.from({ length: MAX_SHAPES }, (_, i) => `kind ${i}`);
    writeFileSync(path.join(directory, `shapes-${main}`), `${kinds.join('\n')}\n`);
    const before = snapshot(directory);
    // a kind that loads no file the first did not (-o yaml would: its writer is a file of its own, with no code yet)
    run(['config', 'list', '-o', 'json'], env);
    expect(snapshot(directory)).toEqual(before);
  });

  it.each([
    ['damaged on the disk (its checksum does not match)', (size: number) => Buffer.alloc(size, 0x5a)],
    ['that V8 refuses (its checksum matches)', (size: number) => withChecksum(Buffer.alloc(size - 4, 0x5a))],
  ])('code %s costs a compile: the command answers the same, and the file is written anew', (_, damage) => {
    const env = { XDG_CACHE_HOME: tempDir('fleetctl-damaged-cache-') };
    const directory = codeDirectory(env);
    const first = run(['config', 'list'], env);
    const main = path.join(directory, codeFiles(directory).find((name) => name.startsWith('main-'))!);
    const damaged = damage(statSync(main).size);
    writeFileSync(main, damaged);
    expect(run(['config', 'list'], env)).toBe(first);
    expect(readFileSync(main).equals(damaged)).toBe(false);
  });

  it(`a write removes the code not written for ${STALE_AFTER_MS / 86_400_000} days (of builds since replaced); what a run loads is written again, by the next run at the latest`, () => {
    const env = { XDG_CACHE_HOME: tempDir('fleetctl-stale-cache-') };
    const directory = codeDirectory(env);
    run(['config', 'list'], env);
    const old = new Date(Date.now() - STALE_AFTER_MS - 86_400_000);
    const earlierBuild = path.join(directory, 'core-0ldBu1ld-12345678.code');
    const recent = path.join(directory, 'core-Rec3ntBu-87654321.code');
    writeFileSync(earlierBuild, withChecksum(Buffer.from('code')));
    writeFileSync(recent, withChecksum(Buffer.from('code')));
    utimesSync(earlierBuild, old, old);
    const main = path.join(directory, codeFiles(directory).find((name) => name.startsWith('main-'))!);
    utimesSync(main, old, old);
    run(['config', 'list', '-o', 'yaml'], env); // a file with no code yet (the YAML writer's): a write
    expect(existsSync(earlierBuild)).toBe(false);
    expect(existsSync(recent)).toBe(true);
    // removed as stale too, or (code taken after a run) written again with the rest: the next run has it
    run(['config', 'list'], env);
    expect(Date.now() - statSync(main).mtimeMs).toBeLessThan(STALE_AFTER_MS);
  });

  it('NODE_DISABLE_COMPILE_CACHE=1 turns it off: nothing is made', () => {
    const cache = tempDir('fleetctl-disabled-cache-');
    run(['config', 'list'], { XDG_CACHE_HOME: cache, NODE_DISABLE_COMPILE_CACHE: '1' });
    expect(existsSync(path.join(cache, 'fleetctl'))).toBe(false);
  });

  it('with --enable-source-maps Node compiles the bundle itself (a vm.Script\'s stack frames are not mapped): nothing is made', () => {
    const cache = tempDir('fleetctl-source-maps-cache-');
    execFileSync(process.execPath, ['--enable-source-maps', path.join(root, 'bin/fleetctl.js'), 'config', 'list'], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { PATH: process.env.PATH, HOME: path.join(work, 'home'), FLEETCTL_CONFIG_DIR: path.join(work, 'config'), XDG_CACHE_HOME: cache },
    });
    expect(existsSync(path.join(cache, 'fleetctl'))).toBe(false);
    // and without the flag, the same command makes it
    run(['config', 'list'], { XDG_CACHE_HOME: cache });
    expect(existsSync(path.join(cache, 'fleetctl'))).toBe(true);
  });

  it('a cache directory that cannot be made costs nothing but time: the command still succeeds', () => {
    const blocked = path.join(work, 'a-file');
    writeFileSync(blocked, '');
    expect(() => run(['config', 'list'], { XDG_CACHE_HOME: blocked })).not.toThrow();
  });

  // vm.Script gives an import() no module loader to use (ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING): the bundle's
  // loads on first use are require()s (src/build/chunks.mjs, dynamicImportInCjs: false)
  it('compiles files that never call import(): every load on first use is a require', () => {
    const files = ['dist/main.js', ...readdirSync(path.join(root, 'dist/chunks')).filter((name) => name.endsWith('.js')).map((name) => `dist/chunks/${name}`)];
    const calling = files.filter((file) => {
      let found = false;
      const visit = (node: unknown): void => {
        if (found || node === null || typeof node !== 'object') return;
        if ((node as { type?: unknown }).type === 'ImportExpression') found = true;
        for (const child of Object.values(node)) visit(child);
      };
      visit(parseAst(readFileSync(path.join(root, file), 'utf8')));
      return found;
    });
    expect(files.length).toBeGreaterThan(20);
    expect(calling).toEqual([]);
    // the check sees one when there is one
    expect(JSON.stringify(parseAst('async function f() { return import("./x.js"); }'))).toContain('"ImportExpression"');
  });

  // on Node 20, and in a run before the cache has a file's code, what V8 compiled with the file is what is kept
  it('can keep the bundled CommonJS modules: each body is a parenthesized function expression, compiled with its chunk', () => {
    const chunks = readdirSync(path.join(root, 'dist/chunks')).filter((name) => name.endsWith('.js'));
    const code = chunks.map((name) => readFileSync(path.join(root, 'dist/chunks', name), 'utf8')).join('\n');
    expect(code).not.toMatch(/"[^"\n]+\.c?js"\(exports\d*, module\d*\) \{/);
    expect(code.match(/"node_modules\/undici\/[^"\n]+\.js": \(function\(exports\d*, module\d*\) \{/g)?.length).toBeGreaterThan(20);
  });
});
