// The second half of the build: esbuild's split output, regrouped into fewer, larger chunks by Rollup.
// esbuild makes one chunk for every set of entry points that reach a module, and every `import()` is an entry
// point: a cached `devices get` loaded 49 files. Node's ES-module loader spends about half a millisecond on each
// file (resolve, URL and package-scope work) whatever its size, a fifth of the command's own time on Node 22
// and 24. Rollup's manualChunks puts together what is always loaded together; what loads on demand (the other
// groups, the sandbox, prompts, tables, YAML, jq) stays apart. test/build/startup.test.ts holds the line.
// Every group is derived from esbuild's metafile (its import graph), named by an entry point or a pattern.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { rollup } from 'rollup';
import { builtinWrapperNames, commonJsRuntime } from './commonjs-runtime.mjs';
import { eagerFunctions, hotFunctions } from './eager-functions.mjs';

/**
 * The module that loads what a request needs, at once (factory.ts imports it to build the API client and its
 * transport): the request group is what its static imports reach, and what those modules load on demand (a
 * proxy agent) is of its family.
 */
const REQUEST_STACK = 'src/api/request-stack.ts';
/**
 * What a request loads beside the stack, at the same time (api/client-from-settings.ts): the keychain's reader,
 * which `auth` imports too. With what a request shares with other commands, not a file (and its facade) apart.
 */
const REQUEST_COMPANION = 'src/auth/secret-store.ts';
/**
 * What other commands load beside a request, small: a device command's request and its key (`api` and the bulk
 * pipeline), with what a request shares rather than a file more for a reboot to import.
 */
const REQUEST_SHARED = ['src/api/device-commands.ts'];
/**
 * The config store's check, compiled at build, which every command that reads the store loads (a request reads
 * it for its settings): in the core chunk, not a file more for each request to import.
 */
const CONFIG_CHECK = 'src/openapi/config-validator.gen.ts';
const COMMAND_GROUP = /^src\/commands\/[^/]+\/index\.ts$/;
/**
 * The output layer's plan of a person's table, loaded when one is drawn: it reads the records through the record
 * boundary as the command groups do, so what it shares with them stays in their shared chunk.
 */
const TABLE_PLAN = 'src/output/person-table.ts';
/** The guided mode, loaded on its path only: it asks with the groups' pickers, from the chunk they share. */
const GUIDED_MODE = 'src/guided/session.ts';
const SHARED_BY_GROUPS = 4;
/**
 * The table of a group that builds only the verb the line names (devices, webhook-config): shared by fewer groups,
 * but each of them loads what the groups share for its verbs anyway; with it, not a file of its own.
 */
const VERB_TABLE = 'src/commands/shared/verbs.ts';
/**
 * The selection language (--where, @NAME, the filters of `status` and `history`): as many groups share it as
 * share the pickers, but a lookup or a list without a condition never runs it; it is a chunk of its own.
 */
const SELECTION_LANGUAGE = 'src/selection/';
/**
 * The pipeline every change of many devices runs (journal, waves, pacing): what only the verbs that run it
 * share is one chunk, which a lookup such as `devices get` never loads.
 */
const BULK_PIPELINE = 'src/bulk/pipeline.ts';
/**
 * The verbs whose one-device call runs that pipeline: they and what their static imports reach are the pipeline's
 * chunk; what only runs over many devices load (their sources and journal, the run's display, assignments) is
 * another.
 */
const SINGLE_DEVICE_VERBS = ['src/commands/devices/reboot.ts', 'src/commands/devices/wake-up.ts'];
/** The lookups scripts call most, small: in their group's chunk, not a file more for each call. */
const LOOKUP_VERBS = ['src/commands/devices/get.ts', 'src/commands/devices/list.ts'];

/** import.meta.url in a CommonJS file (output/jq.ts reads it): the file's own URL, with no shim for a browser. */
const nodeImportMeta = {
  name: 'node-import-meta',
  resolveImportMeta: (property) => (property === 'url' ? "require('node:url').pathToFileURL(__filename).href" : null),
};

/**
 * Rebundles the esbuild output in `stageDir` (with its metafile) into `outDir`, and returns a metafile of the
 * same shape for the new files: each output with the source inputs it holds. `helperRewrites: false` leaves
 * esbuild's runtime helpers as esbuild wrote them (commonjs-runtime.mjs): slower to start, same behaviour.
 * `sourceMaps: true` carries esbuild's maps through to a map beside each output file.
 */
export async function regroupChunks({ root, stageDir, stageMeta, outDir, helperRewrites = true, sourceMaps = false }) {
  const outputs = Object.fromEntries(Object.entries(stageMeta.outputs).map(([key, output]) => [path.resolve(root, key), output]));
  const graph = importGraph(root, outputs);
  const chunkOf = chunkNames(root, stageMeta, outputs, graph);

  const builtinWrappers = builtinWrapperNames(Object.keys(outputs).filter((name) => name.endsWith('.js')).map((file) => readFileSync(file, 'utf8')));
  const hot = helperRewrites ? hotFunctions() : new Set();

  const bundle = await rollup({
    input: { main: path.join(stageDir, 'main.js'), 'compile-cache': path.join(stageDir, 'compile-cache.js') },
    // builtins, and the two packages esbuild leaves in node_modules (jq-web, @napi-rs/keyring)
    external: (id) => !id.startsWith('.') && !path.isAbsolute(id),
    // esbuild has already dropped what is unused: a second tree-shaking would cost more than it removes
    treeshake: false,
    plugins: [nodeImportMeta, ...(sourceMaps ? [withInputSourceMaps()] : []), ...(helperRewrites ? [commonJsRuntime(builtinWrappers, hot), eagerFunctions(hot)] : [])],
    onwarn(warning, warn) {
      if (warning.code !== 'CIRCULAR_DEPENDENCY') warn(warning);
    },
  });
  const { output } = await bundle.write({
    dir: outDir,
    // CommonJS, which Node loads without its ES module loader: setting that up, and its promise-driven steps
    // for each file, cost 5 to 7 ms of every call on Node 22 to 26 (bin/fleetctl.js is CommonJS too); a chunk
    // loaded on first use is required then, as import() did
    format: 'cjs',
    dynamicImportInCjs: false,
    sourcemap: sourceMaps,
    entryFileNames: '[name].js',
    // esbuild's names carry its hash (devices-QEAT7TXW): the name without it, and Rollup's hash
    chunkFileNames: (chunk) => `chunks/${chunk.name.replace(/-[A-Z0-9]{8}$/, '')}-[hash].js`,
    manualChunks: chunkOf,
    // a module no rule names is not pulled into the first manual chunk that imports it (undici with a helper
    // that --help needs): Rollup's own chunking places it
    onlyExplicitManualChunks: true,
  });
  await bundle.close();

  const meta = { outputs: {} };
  for (const chunk of output) {
    if (chunk.type !== 'chunk') continue;
    const inputs = {};
    for (const moduleId of Object.keys(chunk.modules)) Object.assign(inputs, outputs[moduleId]?.inputs);
    meta.outputs[path.relative(root, path.join(outDir, chunk.fileName))] = { inputs, bytes: Buffer.byteLength(chunk.code) };
  }
  return meta;
}

/**
 * esbuild's output files as a graph: each entry point's file (`entryFile`, by its source), what static imports
 * (or `kinds`) reach from some files (`closure`), and for each file the entry points whose static imports reach it.
 */
function importGraph(root, outputs) {
  const entryFile = (entryPoint) => {
    const file = Object.keys(outputs).find((output) => outputs[output].entryPoint === entryPoint);
    if (!file) throw new Error(`${entryPoint} is no entry point of the bundle (an import() target): the build groups chunks around it (src/build/chunks.mjs)`);
    return file;
  };
  const closure = (starts, kinds = ['import-statement']) => {
    const seen = new Set();
    const pending = [...starts];
    while (pending.length > 0) {
      const file = pending.pop();
      if (seen.has(file)) continue;
      seen.add(file);
      for (const imported of outputs[file]?.imports ?? []) {
        const target = path.resolve(root, imported.path);
        if (kinds.includes(imported.kind) && outputs[target]) pending.push(target);
      }
    }
    return seen;
  };
  // for each module, the entry points (each import() target) whose static imports reach it
  const reachers = new Map();
  for (const entry of Object.keys(outputs).filter((file) => outputs[file].entryPoint)) {
    for (const file of closure([entry])) reachers.set(file, (reachers.get(file) ?? new Set()).add(entry));
  }
  return { entryFile, closure, reachers };
}

/** Rollup's manualChunks: the chunk each of esbuild's output files goes in (the groups above); undefined: Rollup's choice. */
function chunkNames(root, stageMeta, outputs, { entryFile, closure, reachers }) {
  const core = closure([entryFile('src/main.ts')]);
  // the stack, and the entry points (import() targets) among the modules it imports: a module that
  // something else also loads on demand (undici for a webhook, the CA check for `config set`) is the request's
  const stackModules = sourceClosure(stageMeta.inputs, REQUEST_STACK);
  const requestEntries = new Set([entryFile(REQUEST_STACK), ...Object.keys(outputs).filter((file) => stackModules.has(outputs[file].entryPoint))]);
  // and the entry points those load on demand: undici's code is reached by its proxy agent too, which only a
  // request loads
  const requestFamily = new Set([...closure(requestEntries, ['import-statement', 'dynamic-import'])].filter((file) => outputs[file].entryPoint));
  const requestCompanion = closure([entryFile(REQUEST_COMPANION)]);
  const groupEntries = new Set(Object.keys(outputs).filter((file) => COMMAND_GROUP.test(outputs[file].entryPoint ?? '')));
  // the group of each module of a group loaded on demand: its index, a verb the index loads when the line names
  // it (commands/devices), or what a verb loads for some of its runs; what the groups share (commands/shared)
  // and load on demand belongs to no group, and to the commands
  const groupOfEntry = new Map();
  for (const file of Object.keys(outputs)) {
    const group = COMMAND_GROUP_NAME.exec(outputs[file].entryPoint ?? '')?.[1];
    if (group !== undefined && group !== 'shared') groupOfEntry.set(file, group);
  }
  // the groups whose index loads each verb's module when it is built
  const verbsOnDemand = new Set(
    [...groupEntries].filter((index) => outputs[index].imports.some((imported) => imported.kind === 'dynamic-import' && groupOfEntry.get(path.resolve(root, imported.path)) === groupOfEntry.get(index))).map((index) => groupOfEntry.get(index)),
  );
  const commandEntries = Object.keys(outputs).filter((file) => COMMAND_GROUP_NAME.test(outputs[file].entryPoint ?? ''));
  const groupOrTableEntries = new Set([...commandEntries, ...Object.keys(outputs).filter((file) => [TABLE_PLAN, GUIDED_MODE].includes(outputs[file].entryPoint))]);
  const reachedFrom = (file, entries) => [...(reachers.get(file) ?? [])].some((entry) => entries.has(entry));
  const onlyFrom = (file, entries) => [...(reachers.get(file) ?? [])].every((entry) => entries.has(entry));
  const groupsReaching = (file) => new Set([...(reachers.get(file) ?? [])].map((entry) => groupOfEntry.get(entry)).filter(Boolean));
  const bulkEntries = new Set([...reachers.get(entryFileOfInput(outputs, BULK_PIPELINE)) ?? []]);
  const singleDevice = closure(SINGLE_DEVICE_VERBS.map(entryFile));
  const chunkOf = (file) => {
    if (outputs[file]?.entryPoint === 'src/main.ts' || outputs[file]?.entryPoint === 'src/compile-cache.ts') return undefined;
    if (core.has(file) || outputs[file]?.entryPoint === CONFIG_CHECK) return 'core';
    // only what nothing but a request loads: `--help` and completion must not bring undici with a shared module
    if (reachedFrom(file, requestEntries) && onlyFrom(file, requestFamily)) return 'request';
    // what a request shares with other commands (token cache, problem bodies, paging): small, no undici
    if (reachedFrom(file, requestEntries) || requestCompanion.has(file) || REQUEST_SHARED.some((input) => outputs[file].inputs[input])) return 'request-shared';
    // what most command groups share (the pickers, paging, dates, input reading of their list and get verbs):
    // one chunk that any group's command loads; what two or three groups share (webhook code, event schemas)
    // stays apart
    // what a one-device reboot or wake-up runs of the pipeline that other commands load too (its runner and
    // pacer: `status --watch`): with the verbs, not files more for a reboot to import
    if (!onlyFrom(file, groupOrTableEntries)) return singleDevice.has(file) ? 'bulk' : undefined;
    const groups = groupsReaching(file);
    if (groups.size >= SHARED_BY_GROUPS) return Object.keys(outputs[file].inputs).every((input) => input.startsWith(SELECTION_LANGUAGE)) ? 'selection' : 'commands';
    if (outputs[file].inputs[VERB_TABLE]) return 'commands';
    // a group whose verbs load one by one: what the one-device verbs reach of the bulk pipeline, with them; what
    // only the verbs that run it over many devices share; then the group's index with what two or more of its
    // verbs share (a device looked up by id or hardware id); each verb's own modules stay with it (Rollup's own
    // chunking), not scattered over a chunk per set of verbs
    const sharing = [...reachers.get(file)].filter((entry) => groupOfEntry.has(entry)).length;
    if (singleDevice.has(file)) return 'bulk';
    if (sharing >= 2 && onlyFrom(file, bulkEntries)) return 'bulk-run';
    const [group] = groups;
    const lookup = LOOKUP_VERBS.includes(outputs[file].entryPoint);
    if (groups.size === 1 && verbsOnDemand.has(group) && (groupEntries.has(file) || sharing >= 2 || lookup)) return group;
    return undefined;
  };
  return chunkOf;
}

const COMMAND_GROUP_NAME = /^src\/commands\/([^/]+)\//;

/** The output file (of esbuild's) that holds the source module `input`. */
function entryFileOfInput(outputs, input) {
  const file = Object.keys(outputs).find((output) => outputs[output].inputs[input]);
  if (!file) throw new Error(`${input} is not in the bundle: the build groups chunks around it (src/build/chunks.mjs)`);
  return file;
}

/** The source modules `start` imports statically, directly or not (esbuild's metafile `inputs`), itself included. */
export function sourceClosure(inputs, start) {
  if (!inputs[start]) throw new Error(`${start} is not in the bundle: the build groups chunks around it (src/build/chunks.mjs)`);
  const seen = new Set();
  const pending = [start];
  while (pending.length > 0) {
    const input = pending.pop();
    if (seen.has(input) || !inputs[input]) continue;
    seen.add(input);
    for (const imported of inputs[input].imports) if (imported.kind === 'import-statement' && !imported.external) pending.push(imported.path);
  }
  return seen;
}

/** esbuild's source maps, handed to Rollup with each file so that the final maps still point at src/. */
function withInputSourceMaps() {
  return {
    name: 'input-source-maps',
    load(id) {
      // esbuild writes a linked map beside every file
      const code = readFileSync(id, 'utf8').replace(/\n\/\/# sourceMappingURL=\S+\s*$/, '\n');
      return { code, map: JSON.parse(readFileSync(`${id}.map`, 'utf8')) };
    },
  };
}
