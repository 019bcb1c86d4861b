// What a dependency requires as it loads but needs only for something fleetctl never does: a stand-in takes its
// place in the bundle and loads it on first use (a member read or a call).
import path from 'node:path';

// - commander: node:child_process, for executable subcommands, which fleetctl has none of (with dgram and the
//   rest of its modules, a few milliseconds of every command).
// - undici: its HTTP/2 client, for a server that negotiates h2 when the client offers it (allowH2), which
//   fleetctl does not; with node:http2 (and node:tls, which it loads) about 5 ms of every request.
export const LOADED_ON_FIRST_USE = {
  'node_modules/commander/': ['node:child_process'],
  'node_modules/undici/lib/dispatcher/client.js': ['./client-h2.js'],
};

/** The esbuild plugin: each require that LOADED_ON_FIRST_USE names, from the files it names, gets the stand-in. */
export function loadedOnFirstUse(root) {
  return {
    name: 'loaded-on-first-use',
    setup(pluginBuild) {
      const ids = [...new Set(Object.values(LOADED_ON_FIRST_USE).flat())];
      const filter = new RegExp(`^(${ids.map((id) => id.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})$`);
      pluginBuild.onResolve({ filter }, (args) => {
        if (args.kind !== 'require-call' || args.namespace !== 'file') return undefined;
        const importer = path.relative(root, args.importer);
        if (!Object.entries(LOADED_ON_FIRST_USE).some(([from, list]) => importer.startsWith(from) && list.includes(args.path))) return undefined;
        // a file by its path in the project, which names its module in the bundle
        return { path: args.path.startsWith('node:') ? args.path : `./${path.relative(root, path.resolve(args.resolveDir, args.path))}`, namespace: 'on-first-use' };
      });
      pluginBuild.onLoad({ filter: /.*/, namespace: 'on-first-use' }, (args) => ({
        contents: firstUseStandIn(args.path.startsWith('node:') ? `process.getBuiltinModule(${JSON.stringify(args.path)})` : `require(${JSON.stringify(args.path)})`),
        resolveDir: root,
        loader: 'js',
      }));
    },
  };
}

/**
 * A CommonJS module that stands for the one `load` (an expression) loads, and loads it when a member is first
 * read or when it is first called: a function, so that a module whose export is one (undici's connectH2) can be.
 */
export function firstUseStandIn(load) {
  return `let loaded;
const load = () => (loaded ??= ${load});
module.exports = new Proxy(function () {}, {
  get: (_, name) => load()[name],
  apply: (_, self, args) => Reflect.apply(load(), self, args),
});
`;
}
