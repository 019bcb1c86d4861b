// `node --import ./test/build/record-modules.mjs ...`: appends the URL of every module loaded to $FLEETCTL_LOADED_MODULES,
// and at exit the public built-in modules Node loaded (node:child_process...); with $FLEETCTL_IMPORT_EDGES, each ES
// import the loader resolved and each require, as `IMPORTER IMPORTED` (two URLs) a line.
// ES modules through loader hooks; CommonJS modules loaded with require() (which those hooks do not see on
// Node 20) by wrapping the CommonJS loader.
import Module, { register } from 'node:module';
import { appendFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

const file = process.env.FLEETCTL_LOADED_MODULES;
register('./record-modules-hooks.mjs', import.meta.url, { data: { file, edges: process.env.FLEETCTL_IMPORT_EDGES } });

const load = Module._load;
const edges = process.env.FLEETCTL_IMPORT_EDGES;
/** Each module once: Module._load runs for every require, a module already loaded included. */
const recorded = new Set();
Module._load = function recordingLoad(request, parent, isMain) {
  if (file && !Module.isBuiltin(request)) {
    try {
      const url = pathToFileURL(Module._resolveFilename(request, parent, isMain)).href;
      if (!recorded.has(url)) appendFileSync(file, `${url}\n`);
      recorded.add(url);
      // the bundle's files require one another (src/build/bundle.mjs): each require an edge, as an ES import is
      if (edges && parent?.filename) appendFileSync(edges, `${pathToFileURL(parent.filename).href} ${url}\n`);
    } catch {
      // not resolvable: the real load reports it
    }
  }
  return load.apply(this, arguments);
};

process.on('exit', () => {
  if (!file) return;
  const builtins = process.moduleLoadList.filter((entry) => entry.startsWith('NativeModule ') && !entry.includes('internal/'));
  appendFileSync(file, builtins.map((entry) => `node:${entry.slice('NativeModule '.length)}\n`).join(''));
});
