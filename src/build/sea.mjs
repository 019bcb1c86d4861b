// npm run build:sea: fleetctl as one executable (a Node.js single executable application) for this platform,
// written to dist-sea/fleetctl. It embeds the Node that runs this script: run it with the Node the executable
// should carry (`npx -y node@26 src/build/sea.mjs`). Node 26 and later run an ES module entry ("mainFormat":
// "module") and build the executable themselves (--build-sea); an earlier Node runs a CommonJS entry, made into
// a blob (--experimental-sea-config) that postject injects into a copy of node.
// jq.wasm and jq-web's script are assets of the executable (src/output/jq.ts reads them with node:sea). The
// keychain module (@napi-rs/keyring, native) is not embedded: it is loaded from a node_modules folder beside the
// executable when there is one, and otherwise the secret goes to the config file, as on a machine without a
// keychain (`auth login` says so).
import { build } from 'esbuild';
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { builtinsAsCommonJs, versionDefines } from './bundle.mjs';
import { sideEffectFreePackages } from './side-effect-free.mjs';
import { loadedOnFirstUse } from './first-use.mjs';

/**
 * @napi-rs/keyring loads a native binary, which an executable cannot embed: it is required, when first used,
 * from beside the executable (a node_modules folder there, or above). When it is not there, the import fails
 * and the keychain counts as absent.
 */
const keyringBesideExecutable = {
  name: 'keyring-beside-executable',
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /^@napi-rs\/keyring$/ }, (args) => ({ path: args.path, namespace: 'beside-executable' }));
    pluginBuild.onLoad({ filter: /.*/, namespace: 'beside-executable' }, (args) => ({
      contents: `module.exports = process.getBuiltinModule('node:module').createRequire(process.execPath)(${JSON.stringify(args.path)});\n`,
      loader: 'js',
    }));
  },
};

const SEA_MAIN = `const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) process.stdout.write(__FLEETCTL_VERSION_LINE__ + '\\n');
else import('./src/main.ts').then(({ main }) => main(process.argv)).then((code) => { process.exitCode = code; });
`;

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const outDir = path.join(root, 'dist-sea');
const executable = path.join(outDir, process.platform === 'win32' ? 'fleetctl.exe' : 'fleetctl');
const [major] = process.versions.node.split('.').map(Number);
// ES module entries came with Node 25.7 and --build-sea with 25.5; 25 is no maintained line, so 26 decides
const esm = major >= 26;
const started = performance.now();

rmSync(outDir, { recursive: true, force: true });
mkdirSync(outDir, { recursive: true });
const main = path.join(outDir, esm ? 'fleetctl.mjs' : 'fleetctl.cjs');
await build({
  // what bin/fleetctl.js does, without the compile cache (the executable carries V8's code cache of its own):
  // --version answered before the command tree's modules run (esbuild wraps what import() loads in a function)
  stdin: { contents: SEA_MAIN, resolveDir: root, sourcefile: 'sea-main.js', loader: 'js' },
  outfile: main,
  absWorkingDir: root,
  bundle: true,
  platform: 'node',
  format: esm ? 'esm' : 'cjs',
  target: `node${major}`,
  logLevel: 'warning',
  // jq.ts reads import.meta.url only outside an executable (its node_modules branch)
  logOverride: { 'empty-import-meta': 'silent' },
  plugins: [sideEffectFreePackages, loadedOnFirstUse(root), builtinsAsCommonJs, keyringBesideExecutable],
  define: versionDefines(root),
});

const jqWeb = path.dirname(createRequire(import.meta.url).resolve('jq-web'));
const config = {
  main,
  ...(esm ? { mainFormat: 'module', executable: process.execPath, output: executable } : { output: path.join(outDir, 'fleetctl.blob') }),
  disableExperimentalSEAWarning: true,
  // V8's compiled code of the bundle, made at build time: the executable does not compile it on every start
  useCodeCache: true,
  assets: { 'jq.js': path.join(jqWeb, 'jq.js'), 'jq.wasm': path.join(jqWeb, 'jq.wasm') },
};
const configFile = path.join(outDir, 'sea-config.json');
writeFileSync(configFile, JSON.stringify(config, null, 2));

if (esm) {
  execFileSync(process.execPath, ['--build-sea', configFile], { cwd: outDir, stdio: 'inherit' });
} else {
  execFileSync(process.execPath, ['--experimental-sea-config', configFile], { cwd: outDir, stdio: 'inherit' });
  copyFileSync(process.execPath, executable);
  chmodSync(executable, 0o755);
  const postject = createRequire(import.meta.url).resolve('postject/dist/cli.js');
  // the fuse is the string Node looks for to know a blob was injected (Node's documentation gives it)
  const injected = spawnSync(process.execPath, [postject, executable, 'NODE_SEA_BLOB', config.output, '--sentinel-fuse', 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2'], { encoding: 'utf8' });
  // LIEF, inside postject, warns about ELF note sections it does not name, on every Linux node: not news
  const said = injected.stderr.split('\n').filter((line) => line && !/^warning: Can't find string offset for section name/.test(line));
  if (injected.status !== 0) throw new Error(`postject failed (exit ${injected.status}):\n${said.join('\n')}`);
  if (said.length > 0) console.error(said.join('\n'));
  rmSync(config.output);
}
rmSync(main);
rmSync(configFile);

const megabytes = (statSync(executable).size / 1024 ** 2).toFixed(0);
console.error(`build:sea: ${path.relative(root, executable)} (${megabytes} MB, Node ${process.version}, ${esm ? 'ES module' : 'CommonJS'} entry) in ${((performance.now() - started) / 1000).toFixed(1)} s`);
