// The build rewrites esbuild's runtime helpers by the text esbuild writes (src/build/chunks.mjs): a new esbuild
// may write them otherwise. Switched off (FLEETCTL_BUILD_HELPER_REWRITES=off), the build must still make a CLI
// that works: built here into a folder of its own and run, beside the default build in dist/. The same build
// writes source maps (FLEETCTL_BUILD_SOURCEMAPS=on), which the default build leaves out.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
// build scripts: plain JavaScript, typed here
const { bundleCli } = (await import(pathToFileURL(path.join(root, 'src/build/bundle.mjs')).href)) as {
  bundleCli: (options: { root: string; outDir: string; helperRewrites: boolean; sourceMaps: boolean }) => Promise<unknown>;
};
const { sourceClosure } = (await import(pathToFileURL(path.join(root, 'src/build/chunks.mjs')).href)) as {
  sourceClosure: (inputs: Record<string, { imports: { path: string; kind: string; external?: boolean }[] }>, start: string) => Set<string>;
};

let work: string;
let plainCode: string;

const { LEFT_AS_WRITTEN_CHUNKS } = (await import(pathToFileURL(path.join(root, 'src/build/eager-functions.mjs')).href)) as { LEFT_AS_WRITTEN_CHUNKS: string[] };
/** A chunk file of dist/: its name, then Rollup's hash. */
const leftAsWritten = (file: string) => path.dirname(file).endsWith('chunks') && LEFT_AS_WRITTEN_CHUNKS.some((name) => path.basename(file).startsWith(`${name}-`));

/** Every .js file of a build, joined (but the chunks whose function declarations the build leaves as written, with `rewritten`). */
const codeOf = (dist: string, rewritten = false) =>
  [...readdirSync(dist).map((name) => path.join(dist, name)), ...readdirSync(path.join(dist, 'chunks')).map((name) => path.join(dist, 'chunks', name))]
    .filter((file) => file.endsWith('.js'))
    .filter((file) => !rewritten || !leftAsWritten(file))
    .map((file) => readFileSync(file, 'utf8'))
    .join('\n');

beforeAll(async () => {
  // under node_modules, so that the build finds jq-web and @napi-rs/keyring as dist/ does; its own package.json
  // makes its files ES modules (Node's package-scope lookup stops at node_modules)
  const cache = path.join(root, 'node_modules/.cache');
  mkdirSync(cache, { recursive: true });
  work = mkdtempSync(path.join(cache, 'fleetctl-plain-build-'));
  writeFileSync(path.join(work, 'package.json'), '{ "type": "module" }\n');
  cpSync(path.join(root, 'bin'), path.join(work, 'bin'), { recursive: true });
  await bundleCli({ root, outDir: path.join(work, 'dist'), helperRewrites: false, sourceMaps: true });
  plainCode = codeOf(path.join(work, 'dist'));
}, 600_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

function run(args: string[]) {
  const configDir = path.join(work, 'config');
  return spawnSync(process.execPath, [path.join(work, 'bin/fleetctl.js'), ...args], {
    cwd: work,
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '', HOME: work, CI: 'true', NO_COLOR: '1', FLEETCTL_CONFIG_DIR: configDir, XDG_CACHE_HOME: path.join(work, 'cache') },
  });
}

describe('the build without its rewrites of esbuild helpers', () => {
  it("leaves esbuild's helpers as written, where the default build rewrote them", () => {
    expect(plainCode).not.toContain('__builtinNamespace');
    expect(plainCode).toMatch(/__toESM\(require_node_\w+\(\)/);
    expect(codeOf(path.join(root, 'dist'))).toContain('__builtinNamespace');
    // and its function declarations, which the default build writes as expressions compiled with their file
    expect(plainCode).toMatch(/^function \w+\(/m);
    expect(codeOf(path.join(root, 'dist'), true)).not.toMatch(/^(async )?function\*? \w+\(/m);
  });

  it('runs: --version, --help, and a sandbox command through the request stack', () => {
    const version = run(['--version']);
    // "fleetctl VERSION (PACKAGE) — ...": the version is the second word
    expect(version.stdout.trim().split(' ')[1]).toBe(JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).version);
    const help = run(['--help']);
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/\n {2}devices /);
    const list = run(['--sandbox', 'devices', 'list', '--limit', '2', '-o', 'json']);
    expect(list.stderr).toBe('');
    expect(list.status).toBe(0);
    const devices = JSON.parse(list.stdout) as { hardware_id: string }[];
    expect(devices).toHaveLength(2);
    const reboot = run(['--sandbox', 'devices', 'reboot', devices[0]!.hardware_id, '--yes', '--jq', '.hardware_id']);
    expect(reboot.status).toBe(0);
    expect(reboot.stdout).toContain(devices[0]!.hardware_id);
  });
});

describe('source maps', () => {
  const jsFiles = (dist: string) => [path.join(dist, 'main.js'), ...readdirSync(path.join(dist, 'chunks')).filter((name) => name.endsWith('.js')).map((name) => path.join(dist, 'chunks', name))];

  it('asked for: every file links a map that leads back to the sources in src/', () => {
    const sources = new Set<string>();
    for (const file of jsFiles(path.join(work, 'dist'))) {
      expect(readFileSync(file, 'utf8'), file).toMatch(/\n\/\/# sourceMappingURL=\S+\.js\.map\n?$/);
      const map = JSON.parse(readFileSync(`${file}.map`, 'utf8')) as { sources: string[] };
      for (const source of map.sources) sources.add(path.resolve(path.dirname(file), source));
    }
    for (const source of ['src/main.ts', 'src/api/client.ts', 'src/commands/devices/list.ts']) expect(sources, source).toContain(path.join(root, source));
  });

  it('by default: none written, none linked', () => {
    for (const file of jsFiles(path.join(root, 'dist'))) {
      expect(readFileSync(file, 'utf8'), file).not.toContain('sourceMappingURL');
      expect(() => readFileSync(`${file}.map`), file).toThrow();
    }
  });
});

describe('the request group, derived from the import graph', () => {
  // esbuild's metafile `inputs`, in small: the stack imports the client and (after a move) a transport in a leaf
  const inputs = {
    'src/api/request-stack.ts': { imports: [{ path: 'src/api/client.ts', kind: 'import-statement' }, { path: 'src/transport/transport.ts', kind: 'import-statement' }] },
    'src/api/client.ts': { imports: [{ path: 'src/api/paginate.ts', kind: 'import-statement' }, { path: 'src/output/jq.ts', kind: 'dynamic-import' }] },
    'src/transport/transport.ts': { imports: [{ path: 'undici', kind: 'import-statement', external: true }] },
    'src/api/paginate.ts': { imports: [] },
    'src/output/jq.ts': { imports: [] },
  };

  it('is what the request stack imports statically, wherever those files live', () => {
    expect([...sourceClosure(inputs, 'src/api/request-stack.ts')].sort()).toEqual(['src/api/client.ts', 'src/api/paginate.ts', 'src/api/request-stack.ts', 'src/transport/transport.ts']);
  });

  it('refuses a stack the bundle does not have, rather than grouping nothing', () => {
    expect(() => sourceClosure(inputs, 'src/request-stack.ts')).toThrow(/src\/request-stack.ts is not in the bundle/);
  });

  it('in dist/: the modules of the stack are in the request chunks, none in the chunks every command loads', () => {
    const meta = JSON.parse(readFileSync(path.join(root, 'dist/meta.json'), 'utf8')) as { outputs: Record<string, { inputs: Record<string, unknown> }> };
    const chunkOf = (input: string) => Object.keys(meta.outputs).find((file) => input in meta.outputs[file]!.inputs);
    for (const input of ['src/api/client.ts', 'src/http/transport.ts', 'src/shared/undici.ts', 'src/auth/tokens.ts']) {
      expect(chunkOf(input), input).toMatch(/^dist\/chunks\/request(-shared)?-/);
    }
  });
});
