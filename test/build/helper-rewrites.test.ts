// The build rewrites esbuild's runtime helpers by the text esbuild writes (src/build/chunks.mjs): a new esbuild
// may write them otherwise. Switched off (FLEETCTL_BUILD_HELPER_REWRITES=off), the build must still make a CLI
// that works: built here into a folder of its own and run, beside the default build in dist/. The same build
// writes source maps (FLEETCTL_BUILD_SOURCEMAPS=on), which the default build leaves out.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseAst } from 'rollup/parseAst';
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

const { MODULE_BODY, functionKey, hotFunctions, moduleAt, moduleMarkers, visit } = (await import(pathToFileURL(path.join(root, 'src/build/eager-functions.mjs')).href)) as {
  MODULE_BODY: string;
  functionKey: (module: string | undefined, name: string) => string;
  hotFunctions: () => Set<string>;
  moduleAt: (markers: [number, string][], offset: number) => string | undefined;
  moduleMarkers: (code: string) => [number, string][];
  visit: (node: unknown, see: (node: AstNode, parent: AstNode | undefined) => void) => void;
};

interface AstNode {
  type: string;
  start: number;
  id?: { name: string } | null;
  method?: boolean;
  key?: { value?: unknown };
}

/** Every .js file of a build. */
const jsFilesOf = (dist: string) =>
  [...readdirSync(dist).map((name) => path.join(dist, name)), ...readdirSync(path.join(dist, 'chunks')).map((name) => path.join(dist, 'chunks', name))].filter((file) => file.endsWith('.js'));
/** Every .js file of a build, joined. */
const codeOf = (dist: string) => jsFilesOf(dist).map((file) => readFileSync(file, 'utf8')).join('\n');

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
    // when a single request runs them (src/build/hot-functions.json), and leaves as written otherwise
    expect(plainCode).toMatch(/^async function main\(/m);
    const built = readFileSync(path.join(root, 'dist/main.js'), 'utf8');
    expect(built).toContain('var main = (async function main(');
    expect(built).toMatch(/^async function startEmbeddedSandbox\(/m);
    // a CommonJS module's body: parenthesized when a request runs it, a plain expression when not
    const request = codeOf(path.join(root, 'dist'));
    expect(request).toContain('"node_modules/undici/lib/dispatcher/agent.js": (function(exports, module)');
    expect(request).toContain('"node_modules/undici/lib/llhttp/llhttp-wasm.js": function(exports, module)');
  });

  it('names in hot-functions.json the functions of this build: npm run hot-functions writes it again when most are gone', () => {
    const present = new Set<string>();
    for (const file of jsFilesOf(path.join(work, 'dist'))) {
      const code = readFileSync(file, 'utf8');
      const markers = moduleMarkers(code);
      visit(parseAst(code), (node) => {
        if (node.type === 'FunctionDeclaration' && node.id) present.add(functionKey(moduleAt(markers, node.start), node.id.name));
        if (node.type === 'Property' && node.method && typeof node.key?.value === 'string') present.add(functionKey(node.key.value, MODULE_BODY));
      });
    }
    const hot = [...hotFunctions()];
    const gone = hot.filter((key) => !present.has(key));
    expect(hot.length).toBeGreaterThan(300);
    expect(gone.length / hot.length, `gone from the build: ${gone.slice(0, 20).join(', ')}`).toBeLessThan(0.05);
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
  // the bundle's files: main.js and its chunks
  const jsFiles = (dist: string) => jsFilesOf(dist).filter((file) => file === path.join(dist, 'main.js') || path.dirname(file) === path.join(dist, 'chunks'));

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
