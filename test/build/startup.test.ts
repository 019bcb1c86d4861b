// Start-up is part of the product: `--version` and `--help` must not load the heavy dependencies.
// Runs the built CLI (npm run build first) with a loader hook that records every module it loads, then maps the
// loaded bundle chunks to their node_modules inputs with dist/meta.json. Nothing here is timed.
import { spawnSync } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const hook = pathToFileURL(path.join(root, 'test/build/record-modules.mjs')).href;
const HEAVY = ['undici', '@inquirer/core', 'ora', 'cli-table3', 'conf', 'jq-web', 'yaml'];
/** The OpenAPI libraries that compose the service's document (src/openapi/composed-document.ts). */
const DOCUMENT_LIBRARIES = ['@apidevtools/json-schema-ref-parser', 'allof-merge', 'js-yaml'];

interface Metafile {
  outputs: Record<string, { inputs: Record<string, unknown> }>;
}

let meta: Metafile;
let work: string;

beforeAll(() => {
  const metaFile = path.join(root, 'dist/meta.json');
  if (!existsSync(metaFile)) throw new Error('dist/meta.json is missing: run `npm run build` first');
  meta = JSON.parse(readFileSync(metaFile, 'utf8')) as Metafile;
  work = mkdtempSync(path.join(os.tmpdir(), 'fleetctl-startup-'));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** The package a bundle input belongs to: node_modules/@scope/name/... → @scope/name. */
function packageOf(input: string): string | undefined {
  const match = /(?:^|\/)node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input);
  return match?.[1];
}

/** A service that never answers, and a client to ask it with: a request fails fast, after loading what it needs. */
const REQUEST_ENV = { FLEETCTL_BASE_URL: 'http://127.0.0.1:9', FLEETCTL_CLIENT_ID: 'c', FLEETCTL_CLIENT_SECRET: 's' };

/** Runs bin/fleetctl.js with the hook; returns the packages whose code was loaded, and the files loaded. */
/** ajv's schema compiler (a third of a request's code): only its small runtime helpers may load with the store's checks. */
function ajvCompiler(inputs: Set<string>): string[] {
  return [...inputs].filter((input) => input.startsWith('node_modules/ajv/') && !input.startsWith('node_modules/ajv/dist/runtime/'));
}

function loadedBy(args: string[], env: NodeJS.ProcessEnv = {}): { packages: Set<string>; files: string[]; inputs: Set<string>; builtins: Set<string>; imports: Set<string>; stdout: string; stderr: string } {
  const record = path.join(work, `${args.join('_').replace(/[^\w-]/g, '') || 'none'}.txt`);
  const edges = `${record}.imports`;
  const run = spawnSync(process.execPath, ['--import', hook, path.join(root, 'bin/fleetctl.js'), ...args], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, FLEETCTL_LOADED_MODULES: record, FLEETCTL_IMPORT_EDGES: edges, FLEETCTL_CONFIG_DIR: path.join(work, 'config'), NO_COLOR: '1', ...env },
  });
  const stdout = run.stdout;
  const urls = readFileSync(record, 'utf8').split('\n').filter(Boolean);
  const files = urls.filter((url) => url.startsWith('file:')).map((url) => path.relative(root, fileURLToPath(url)));
  const packages = new Set<string>();
  const inputs = new Set<string>();
  for (const file of files) {
    const direct = packageOf(file);
    if (direct) packages.add(direct);
    for (const input of Object.keys(meta.outputs[file]?.inputs ?? {})) {
      inputs.add(input);
      const pkg = packageOf(input);
      if (pkg) packages.add(pkg);
    }
  }
  // each require (or import) of one file by another, once: the bundle's files are CommonJS (src/build/chunks.mjs)
  const imports = new Set(readFileSync(edges, 'utf8').split('\n').filter(Boolean));
  return { packages, files, inputs, builtins: new Set(urls.filter((url) => url.startsWith('node:'))), imports, stdout, stderr: run.stderr };
}

describe('start-up of the built CLI', () => {
  it.each([['--version'], ['--help']])('%s loads none of undici, @inquirer/core, ora, cli-table3, conf, jq-web, yaml, nor the document libraries', (flag) => {
    const { packages, files, stdout } = loadedBy([flag]);
    expect(stdout.length).toBeGreaterThan(0);
    expect(files.some((file) => file.startsWith('dist/'))).toBe(true);
    expect([...HEAVY, ...DOCUMENT_LIBRARIES].filter((name) => packages.has(name))).toEqual([]);
    if (flag === '--help') expect(stdout).toContain('Exit codes:\n  0    success');
    else expect(stdout).toMatch(/^fleetctl \d+\.\d+\.\d+ \(@fleetctl\/cli\) /);
  });

  it('completion bash loads none of them either', () => {
    const { packages } = loadedBy(['completion', 'bash']);
    expect(HEAVY.filter((name) => packages.has(name))).toEqual([]);
  });

  it('the hidden completion command loads no HTTP stack for profiles, nor for ids with --sandbox on the line', () => {
    for (const args of [['__complete', 'profile', '--', '--profile', ''], ['__complete', 'hardware-id', '--', '--sandbox', 'devices', 'get', '']]) {
      const { packages } = loadedBy(args);
      expect(['undici', '@inquirer/core', 'ora', 'cli-table3'].filter((name) => packages.has(name)), args.join(' ')).toEqual([]);
    }
  });

  it('the recording sees the heavy chunks when a command needs them (config set loads conf)', () => {
    const { packages } = loadedBy(['config', 'set', 'client_id', 'startup-test']);
    expect(packages.has('conf')).toBe(true);
    expect(packages.has('commander')).toBe(true);
    expect(packages.has('jq-web')).toBe(false);
  });

  it('reading the config store loads no conf, nor ajv beyond the runtime of the checks compiled at build: config list', () => {
    const { packages, inputs, stdout } = loadedBy(['config', 'list']);
    expect(stdout).toContain('client_id');
    expect(['conf', 'semver'].filter((name) => packages.has(name))).toEqual([]);
    expect(ajvCompiler(inputs)).toEqual([]);
  });

  it("a request loads undici's agents and request, not its index (fetch, WebSocket, mocks) nor its proxy agent, nor conf when no token is written", () => {
    const { packages, inputs, files, builtins, imports } = loadedBy(['devices', 'get', 'HW-1', '--max-retries', '0'], REQUEST_ENV);
    expect(packages.has('undici')).toBe(true);
    expect(builtins.has('node:http')).toBe(true);
    // commander's executable subcommands (none here), undici's HTTP/2 client (never offered) and fs.promises
    // (read by an ES import of node:fs) load their modules only when used: a few milliseconds of every call
    // otherwise (src/build/bundle.mjs, src/build/first-use.mjs); plain http needs no TLS either
    expect(['node:child_process', 'node:http2', 'node:tls', 'node:fs/promises'].filter((name) => builtins.has(name))).toEqual([]);
    // Node's module loader costs about half a millisecond a file: what a request loads comes in a few chunks
    // (src/build/chunks.mjs), not the 49 that esbuild's splitting alone made; 15 since the devices group loads
    // the named verb's module alone, 10 since the selection language and the report time are chunks of their own
    // and the keychain's reader and the groups' verb table are in the chunks loaded with them, 9 since get is in
    // its group's file
    expect(files.filter((file) => file.startsWith('dist/')).length).toBeLessThanOrEqual(7);
    // and each file requires few others: Node resolves every require of every file (its real path, each time),
    // and past about eighty paths (fewer, the longer the install path) V8 optimizes its path normalizer on a
    // background thread, 5 to 10 ms of CPU time on Node 22 (43 imports before the compile cache was a file alone
    // and the config check, the device commands and the pipeline's runner were in the chunks loaded beside them)
    expect(imports.size).toBeLessThanOrEqual(16);
    expect(inputs.has('node_modules/undici/lib/dispatcher/agent.js')).toBe(true);
    expect(['node_modules/undici/index.js', 'node_modules/undici/lib/web/fetch/index.js', 'node_modules/undici/lib/web/websocket/websocket.js'].filter((input) => inputs.has(input))).toEqual([]);
    expect(['conf', '@inquirer/core', 'ora', 'cli-table3', 'jq-web', 'yaml', ...DOCUMENT_LIBRARIES].filter((name) => packages.has(name))).toEqual([]);
    expect(ajvCompiler(inputs)).toEqual([]);
    // the config store's check alone, not the event schemas; no proxy agent (nor its SOCKS5 client) without a proxy
    expect(inputs.has('src/openapi/config-validator.gen.ts')).toBe(true);
    expect(['src/openapi/validators.gen.ts', 'node_modules/undici/lib/dispatcher/env-http-proxy-agent.js', 'node_modules/undici/lib/core/socks5-client.js'].filter((input) => inputs.has(input))).toEqual([]);
    // one command group: the devices verbs and what commands share, no other group's module
    const groups = new Set([...inputs].map((input) => /^src\/commands\/([^/]+)\//.exec(input)?.[1]).filter(Boolean));
    expect([...groups].sort()).toEqual(['devices', 'shared']);
  });

  // node:crypto costs 4 to 9 ms to load on Node 22 to 26 (src/shared/node-crypto.ts): a call that finds its token
  // cached (the key's HMAC is @noble/hashes') and sends with a key of the user's hashes nothing
  it('a lookup or a reboot with a cached token loads no node:crypto', () => {
    const config = path.join(work, 'cached-token');
    mkdirSync(config, { recursive: true });
    const fingerprint = createHmac('sha256', REQUEST_ENV.FLEETCTL_CLIENT_SECRET).update(`fleetctl token cache\0${REQUEST_ENV.FLEETCTL_CLIENT_ID}`).digest('hex').slice(0, 16);
    const issuer = encodeURIComponent(REQUEST_ENV.FLEETCTL_BASE_URL);
    const token = (scope: string) => [`v2|default|${issuer}|${REQUEST_ENV.FLEETCTL_CLIENT_ID}|${fingerprint}|${encodeURIComponent(scope)}`, { access_token: 'cached', scope, obtained_at: new Date().toISOString(), expires_at: new Date(Date.now() + 3_600_000).toISOString() }];
    const tokens = Object.fromEntries(['thirdparty.api.devices_read', 'thirdparty.api.device_commands_reboot'].map(token));
    writeFileSync(path.join(config, 'config.json'), JSON.stringify({ profiles: {}, tokens }));
    for (const args of [['devices', 'get', 'HW-1'], ['devices', 'reboot', 'HW-1', '--yes', '--idempotency-key', 'k1']]) {
      const { builtins, stderr } = loadedBy([...args, '--max-retries', '0'], { ...REQUEST_ENV, FLEETCTL_CONFIG_DIR: config });
      // nothing answers: the call fails at its request, not at the token's (which would have loaded crypto to save it)
      expect(stderr, args.join(' ')).not.toMatch(/token/i);
      expect(builtins.has('node:http'), args.join(' ')).toBe(true);
      expect(builtins.has('node:crypto'), args.join(' ')).toBe(false);
    }
  });

  // the devices group loads the module of the verb the line names (src/commands/devices/index.ts), and the build
  // keeps what its verbs share in two chunks, not in one per set of verbs (src/build/chunks.mjs)
  // get and list, small and the most called, come in the group's file: a file less to load for each call
  it('devices get loads its verb and the device lookup the verbs share, not the bulk pipeline nor the other verbs but list', () => {
    const { inputs, files } = loadedBy(['devices', 'get', 'HW-1', '--max-retries', '0'], REQUEST_ENV);
    expect([...inputs].filter((input) => input.startsWith('src/commands/devices/')).sort()).toEqual(
      ['get.ts', 'hardware-id-case.ts', 'index.ts', 'list.ts', 'resolve-device.ts'].map((name) => `src/commands/devices/${name}`),
    );
    expect(new Set(files.filter((file) => Object.keys(meta.outputs[file]?.inputs ?? {}).some((input) => input.startsWith('src/commands/devices/')))).size).toBe(1);
    expect([...inputs].filter((input) => input.startsWith('src/bulk/'))).toEqual([]);
    // nor the selection language (a condition, --where), nor the report time and the document it is read from
    expect([...inputs].filter((input) => input.startsWith('src/selection/') || ['src/records/report-time.ts', 'src/openapi/document-shapes.ts', 'src/openapi/composed-document.ts'].includes(input))).toEqual([]);
  });

  it("a reboot loads the bulk pipeline it runs, and the devices modules it needs come in two files: the group's, and the pipeline's with the verb", () => {
    const { inputs, files, imports } = loadedBy(['devices', 'reboot', 'HW-1', '--yes', '--max-retries', '0'], REQUEST_ENV);
    expect(inputs.has('src/bulk/pipeline.ts')).toBe(true);
    const holding = (prefix: string) => files.filter((file) => Object.keys(meta.outputs[file]?.inputs ?? {}).some((input) => input.startsWith(prefix)));
    expect(holding('src/commands/devices/')).toHaveLength(2);
    expect(holding('src/commands/devices/reboot.ts')).toEqual(holding('src/bulk/pipeline.ts'));
    expect(holding('src/bulk/pipeline.ts')).toEqual(holding('src/bulk/wave-run.ts'));
    // one device named alone, no --wait, no terminal: what only a run over many devices, a journal, --wait, a
    // condition or a progress bar needs is loaded when it is used (src/bulk/pipeline.ts, src/build/chunks.mjs)
    const offPath = [
      'src/bulk/journal.ts', 'src/bulk/journal-reader.ts', 'src/bulk/service.ts', 'src/bulk/return-watcher.ts', 'src/bulk/run.ts', 'src/bulk/targets.ts',
      'src/bulk/paced-reads.ts', 'src/bulk/assignment-run.ts', 'src/commands/shared/where.ts', 'src/commands/shared/run-view.ts', 'src/io/progress.ts',
      'src/records/report-time.ts', 'src/openapi/document-shapes.ts', 'src/openapi/composed-document.ts',
    ];
    expect(offPath.filter((input) => inputs.has(input))).toEqual([]);
    expect([...inputs].filter((input) => input.startsWith('src/selection/'))).toEqual([]);
    // the pipeline's runner and pacer, and the device commands, in the files loaded beside it
    expect(files.filter((file) => file.startsWith('dist/')).length).toBeLessThanOrEqual(8);
    expect(imports.size).toBeLessThanOrEqual(20);
  });

  it('the compile cache is turned on by a file that imports nothing: no chunk is compiled before it, none imports it', () => {
    const { imports } = loadedBy(['devices', 'get', 'HW-1', '--max-retries', '0'], REQUEST_ENV);
    const compileCache = pathToFileURL(path.join(root, 'dist/compile-cache.js')).href;
    expect([...imports].filter((edge) => edge.startsWith(`${compileCache} `) || (edge.endsWith(` ${compileCache}`) && !edge.includes('/bin/fleetctl.js ')))).toEqual([]);
    expect(readFileSync(path.join(root, 'dist/compile-cache.js'), 'utf8')).not.toMatch(/^import |\brequire\('\./m);
  });

  // esbuild's __toESM copies each export of the module into a getter of a new object, in every file that imports
  // it: fs, crypto and process have a hundred or more (src/build/chunks.mjs)
  it('an ES import of a built-in module is read through the module, never copied export by export', () => {
    const files = [...readdirSync(path.join(root, 'dist')), ...readdirSync(path.join(root, 'dist/chunks')).map((name) => `chunks/${name}`)];
    const code = files.filter((name) => name.endsWith('.js')).map((name) => readFileSync(path.join(root, 'dist', name), 'utf8')).join('\n');
    // `core.require_node_fs()`: a stand-in of another file, read through the binding of its require
    expect(code.match(/__builtinNamespace(?:\$\d+)?\((?:\w+\.)?require_node_\w+\(\)/g)?.length).toBeGreaterThan(20);
    expect(code.match(/__toESM\((?:\w+\.)?require_node_\w+\(\)/g) ?? []).toEqual([]);
  });

  // A function declaration exists before its module runs; the build writes each as an expression that exists once
  // its scope starts (src/build/eager-functions.mjs): the same, unless files import each other in a cycle
  it("dist/'s files require one another without a cycle, as the build's function expressions need", () => {
    const files = [...readdirSync(path.join(root, 'dist')).map((name) => `dist/${name}`), ...readdirSync(path.join(root, 'dist/chunks')).map((name) => `dist/chunks/${name}`)].filter((file) => file.endsWith('.js'));
    const imports = new Map(
      files.map((file) => {
        const code = readFileSync(path.join(root, file), 'utf8');
        // a file's static requires, at its top: `var core = require('./chunks/core-….js');`, `require('./x.js');`
        const targets = [...code.matchAll(/^(?:var [\w$]+ = )?require\('(\.[^']+)'\);$/gm)].map((match) => path.join(path.dirname(file), match[1]!));
        return [file, targets];
      }),
    );
    expect([...imports.values()].flat().length).toBeGreaterThan(50);
    const cycles: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const walk = (file: string, trail: string[]) => {
      state.set(file, 'open');
      for (const target of imports.get(file) ?? []) {
        if (state.get(target) === 'open') cycles.push([...trail.slice(trail.indexOf(target)), target].join(' -> '));
        else if (!state.has(target)) walk(target, [...trail, target]);
      }
      state.set(file, 'done');
    };
    for (const file of files) if (!state.has(file)) walk(file, [file]);
    expect(cycles).toEqual([]);
  });

  // Node looks for the package.json of every file it imports, folder by folder up: Node 22 notes no folder that
  // has none, and a cached `devices get` tried to open two missing ones 106 times (src/build/bundle.mjs)
  it('dist/, dist/chunks/ and bin/ each hold the package.json that says their files are CommonJS (the package says ES modules)', () => {
    for (const folder of ['dist', 'dist/chunks', 'bin']) expect(JSON.parse(readFileSync(path.join(root, folder, 'package.json'), 'utf8'))).toEqual({ type: 'commonjs' });
    // and each is strict from its first line, as an ES module was (the build's hoisted functions come after it)
    const files = [...readdirSync(path.join(root, 'dist')).map((name) => `dist/${name}`), ...readdirSync(path.join(root, 'dist/chunks')).map((name) => `dist/chunks/${name}`)].filter((file) => file.endsWith('.js'));
    expect(files.length).toBeGreaterThan(20);
    expect(files.filter((file) => !readFileSync(path.join(root, file), 'utf8').startsWith("'use strict';"))).toEqual([]);
  });

  it('the prompts come from @inquirer/prompts without the ones fleetctl never asks (the editor and its encoding tables)', () => {
    const bundled = new Set(Object.values(meta.outputs).flatMap((output) => Object.keys(output.inputs).map(packageOf)));
    expect(bundled).toContain('@inquirer/prompts');
    expect(['@inquirer/editor', '@inquirer/external-editor', 'iconv-lite', 'chardet'].filter((name) => bundled.has(name))).toEqual([]);
  });

  it('--help still lists every command group', () => {
    const { stdout } = loadedBy(['--help']);
    for (const group of ['devices', 'fleets', 'drivers', 'events', 'vehicles', 'journeys', 'organizations', 'api', 'webhook-config', 'webhook', 'auth', 'config', 'sandbox', 'completion']) {
      expect(stdout).toMatch(new RegExp(`\\n  ${group} `));
    }
  });

  it("the bundled document was composed when fleetctl was built: a command that reads it loads none of the document's libraries", () => {
    // nothing answers: the bundled document stands in (as a sandbox's, which serves that very document)
    const { packages, inputs } = loadedBy(['events', 'search', '--hardware-id', 'HW-1', '--since', '1d', '--max-retries', '0'], REQUEST_ENV);
    expect(inputs.has('src/openapi/v1.composed.gen.json')).toBe(true);
    expect(DOCUMENT_LIBRARIES.filter((name) => packages.has(name))).toEqual([]);
    // nor does it compose it again and keep a copy (a document a service serves otherwise is composed at run time
    // by the bundled libraries: test/e2e/second-service-document-forms.test.ts runs that as a process)
    const cache = path.join(work, 'config/openapi-cache');
    expect(existsSync(cache) ? readdirSync(cache).filter((name) => name.startsWith('composed-')) : []).toEqual([]);
  });

  it('jq is loaded when --jq is given, and yaml with -o yaml', () => {
    const jq = loadedBy(['--jq', '.key', 'config', 'list']);
    expect(jq.packages.has('jq-web')).toBe(true);
    expect(jq.stdout).toContain('base_url\n');
    expect(loadedBy(['-o', 'yaml', 'config', 'list']).packages.has('yaml')).toBe(true);
  });
});
