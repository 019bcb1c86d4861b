// Which Node.js runs fleetctl, checked by bin/fleetctl.js before it loads anything else: the bundle uses APIs an
// older Node lacks (process.getBuiltinModule, require of ES modules), and would die with a TypeError instead of
// saying what to install. Written for any Node from 14 on, and standalone: it must not load the bundle. CommonJS,
// as bin/package.json says.
'use strict';

/** The oldest release of each supported major; any major from 24 on is supported (package.json "engines"). */
const MINIMUM_BY_MAJOR = { 20: [20, 19], 22: [22, 12] };
const OPEN_FROM_MAJOR = 24;
const NEEDED = 'Node.js 20.19 or a later 20.x, 22.12 or a later 22.x, or 24 and later';

/** The exit code when it is not (ExitCode.nodeUnsupported in src/errors.ts, README "Exit codes"). */
const NODE_UNSUPPORTED_EXIT_CODE = 14;

/** One line saying what is needed and what was found, or undefined when `version` ("20.19.0", "v18.20.4") runs fleetctl. */
function nodeVersionProblem(version) {
  const found = String(version).replace(/^v/, '');
  const match = /^(\d+)\.(\d+)/.exec(found);
  if (match) {
    const major = Number(match[1]);
    const minor = Number(match[2]);
    if (major >= OPEN_FROM_MAJOR) return undefined;
    const minimum = MINIMUM_BY_MAJOR[major];
    if (minimum && minor >= minimum[1]) return undefined;
  }
  return `fleetctl needs ${NEEDED}; this is Node.js ${found} (${process.execPath}). Install a supported Node.js and run fleetctl again.`;
}

module.exports = { MINIMUM_BY_MAJOR, OPEN_FROM_MAJOR, NEEDED, NODE_UNSUPPORTED_EXIT_CODE, nodeVersionProblem };
