#!/usr/bin/env node
// CommonJS, as the bundle is (src/build/bundle.mjs): Node loads CommonJS without setting up its ES module loader,
// which cost 5 to 7 ms of every call on Node 22 to 26. The Node.js version first, before anything that needs a
// newer one is loaded (supported-node.js).
'use strict';

const { NODE_UNSUPPORTED_EXIT_CODE, nodeVersionProblem } = require('./supported-node.js');

const problem = nodeVersionProblem(process.versions.node);
if (problem) {
  process.stderr.write(`Error: ${problem}\n`);
  process.exitCode = NODE_UNSUPPORTED_EXIT_CODE;
} else {
  run(process.argv.slice(2));
}

function run(args) {
  // Scripts call `fleetctl --version` in loops: answer it without loading the command tree.
  if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
    process.stdout.write(`${require('../dist/version.js').VERSION_LINE}\n`);
    return;
  }
  // the bundle's files compile with the code V8 kept of them (src/compile-cache.ts)
  require('../dist/compile-cache.js').installCodeCache(process.env, require('node:path').join(__dirname, '../dist'), args);
  require('../dist/main.js')
    .main(process.argv)
    .then((code) => {
      process.exitCode = code;
    });
}
