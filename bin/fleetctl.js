#!/usr/bin/env node
// Scripts call `fleetctl --version` in loops: answer it without loading the command tree.
const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  const { VERSION } = await import('../dist/version.js');
  process.stdout.write(`${VERSION}\n`);
} else {
  const { enableCompileCache } = await import('../dist/compile-cache.js');
  enableCompileCache(process.env);
  const { main } = await import('../dist/main.js');
  process.exitCode = await main(process.argv);
}
