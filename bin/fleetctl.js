#!/usr/bin/env node
// The Node.js version first, before anything that needs a newer one is loaded (supported-node.js).
import { NODE_UNSUPPORTED_EXIT_CODE, nodeVersionProblem } from './supported-node.js';

const problem = nodeVersionProblem(process.versions.node);
if (problem) {
  process.stderr.write(`Error: ${problem}\n`);
  process.exitCode = NODE_UNSUPPORTED_EXIT_CODE;
} else {
  await run(process.argv.slice(2));
}

async function run(args) {
  // Scripts call `fleetctl --version` in loops: answer it without loading the command tree.
  if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
    const { VERSION_LINE } = await import('../dist/version.js');
    process.stdout.write(`${VERSION_LINE}\n`);
    return;
  }
  const { enableCompileCache } = await import('../dist/compile-cache.js');
  await enableCompileCache(process.env);
  const { main } = await import('../dist/main.js');
  process.exitCode = await main(process.argv);
}
