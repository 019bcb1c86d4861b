// @inquirer's packages declare "sideEffects": false in their package.json, but each ships a nested
// dist/esm/package.json ({"type": "module"}) that esbuild reads instead, so their declaration is lost and
// `import { confirm } from '@inquirer/prompts'` would bundle every prompt, the editor's encoding tables (iconv-lite,
// chardet: about 670 kB) among them. This restores what the packages declare, for their bare imports only.
const SIDE_EFFECT_FREE = /^@inquirer\//;

/** An esbuild plugin: imports of the packages above resolve as usual, marked side-effect free. */
export const sideEffectFreePackages = {
  name: 'side-effect-free-packages',
  setup(build) {
    build.onResolve({ filter: SIDE_EFFECT_FREE }, async (args) => {
      if (args.pluginData?.sideEffectFree) return undefined;
      const resolved = await build.resolve(args.path, {
        kind: args.kind,
        importer: args.importer,
        resolveDir: args.resolveDir,
        pluginData: { sideEffectFree: true },
      });
      if (resolved.errors.length > 0) return { errors: resolved.errors };
      return { path: resolved.path, namespace: resolved.namespace, external: resolved.external, sideEffects: false };
    });
  },
};
