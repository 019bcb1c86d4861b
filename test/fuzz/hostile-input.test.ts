// The fuzz suite: every command of the tree, with arguments, flags and stdin from hostile families, run through
// main() against an in-process sandbox. Properties: a documented exit code and never 1; no stack trace,
// `[object Object]`, `undefined` or raw control character in the output; on failure something on stderr and
// nothing on stdout (but per-device results); no client secret, token or webhook key; done within its budget,
// and stopped within 2 s of Ctrl-C.
//
// CI runs a fixed seed and a fixed number of cases per command (FLEETCTL_FUZZ_RUNS, default DEFAULT_RUNS): the
// same cases on every machine and every run, however busy the machine is (a time budget explored more cases on
// a quiet machine than on a busy one, so a failure could come and go with the load).
// Locally: FLEETCTL_FUZZ_SEED=random for a new seed each run (it is printed), FLEETCTL_FUZZ_RUNS=500 to explore
// further, FLEETCTL_FUZZ_COMMAND='devices reboot' for one command, and the FLEETCTL_FUZZ_PATH a failure prints
// to replay its shrunk case alone.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { commandTree } from './tree.js';
import { caseFor, describeArgv } from './cases.js';
import { describeRun, isTimingProblem, runCase, violations, type Suite } from './run-case.js';
import { prepareWorld } from './world.js';
import { runsFromEnv, seedFromEnv } from '../support/seeded-runs.js';

const FIXED_SEED = 20_261_122;
const SEED = seedFromEnv('FLEETCTL_FUZZ_SEED', FIXED_SEED);
/** Cases per command: a command's first cases are its seed's, whatever the number. */
const DEFAULT_RUNS = 25;
const RUNS = runsFromEnv('FLEETCTL_FUZZ_RUNS', DEFAULT_RUNS);
const ONLY = process.env.FLEETCTL_FUZZ_COMMAND || undefined;
const REPLAY_PATH = process.env.FLEETCTL_FUZZ_PATH || undefined;
/** Prints each case's command line and exit code. */
const VERBOSE = process.env.FLEETCTL_FUZZ_VERBOSE === '1';

const tree = await commandTree();
const commands = tree.commands.filter((c) => ONLY === undefined || c.path.join(' ') === ONLY);

let root: string;
let cwd: string;
let sandbox: RunningSandbox;
let suite: Suite;

beforeAll(async () => {
  root = mkdtempSync(path.join(os.tmpdir(), 'fleetctl-fuzz-'));
  // relative paths (a default --dir of ".", a generated file name) land in the suite's folder
  cwd = process.cwd();
  mkdirSync(path.join(root, 'cwd'));
  process.chdir(path.join(root, 'cwd'));
  // its own seed: the secrets of a default-seed sandbox (`fleetctl sandbox` prints those) are other ones
  sandbox = await startSandbox({
    host: '127.0.0.1',
    port: 0,
    seed: 424_242,
    log: () => undefined,
    // no delivery may leave the machine: every host name fails to resolve
    webhookResolver: async () => {
      throw Object.assign(new Error('no DNS in the fuzz suite'), { code: 'ENOTFOUND' });
    },
  });
  const defaultSeed = await startSandbox({ host: '127.0.0.1', port: 0, seed: 1, log: () => undefined });
  const defaultSeedSecrets = defaultSeed.clients.map((c) => c.client_secret);
  await defaultSeed.close();
  const admin = sandbox.clients.find((c) => c.client_id === 'sandbox-admin')!;
  const env: NodeJS.ProcessEnv = {
    CI: 'true',
    NO_COLOR: '1',
    FLEETCTL_BASE_URL: sandbox.baseUrl,
    FLEETCTL_AUTH_URL: sandbox.authUrl,
    FLEETCTL_CLIENT_ID: admin.client_id,
    FLEETCTL_CLIENT_SECRET: admin.client_secret,
    FLEETCTL_ORGANIZATION_ID: admin.organization_id,
    FLEETCTL_WEBHOOK_KEY: 'whk_fuzz-listener-key-not-a-real-one',
  };
  const world = await prepareWorld(path.join(root, 'fixtures'), sandbox, env);
  suite = { world, root, env, secrets: sandbox.clients.map((c) => c.client_secret), defaultSeedSecrets };
  console.info(`fuzz: seed ${SEED}, ${commands.length} commands, ${RUNS} cases each`);
}, 60_000);

afterAll(async () => {
  if (cwd) process.chdir(cwd);
  await sandbox?.close();
  if (root) rmSync(root, { recursive: true, force: true });
});

describe('hostile input never crashes a command', () => {
  for (const command of commands) {
    const name = command.path.join(' ');
    // the seed of a command does not depend on which others run, so a failure replays alone
    const seed = (SEED + tree.commands.indexOf(command)) | 0;
    it(name, async () => {
      const property = fc.asyncProperty(caseFor(command, tree.globals, suite.world), async (fuzzCase) => {
        let run = await runCase(fuzzCase, suite);
        let problems = violations(fuzzCase, run, suite);
        // a machine shared with other jobs can stall this process for seconds: a time limit missed once is
        // checked again before it counts
        if (problems.length > 0 && problems.every(isTimingProblem)) {
          run = await runCase(fuzzCase, suite);
          problems = violations(fuzzCase, run, suite);
        }
        if (VERBOSE) console.info(`exit ${run.code} ${Math.round(run.elapsedMs)} ms: fleetctl ${describeArgv(run.argv)}`);
        if (problems.length > 0) throw new Error(describeRun(run, problems));
      });
      const details = await fc.check(property, {
        seed,
        numRuns: REPLAY_PATH ? 1 : RUNS,
        path: REPLAY_PATH,
        endOnFailure: REPLAY_PATH !== undefined,
      });
      if (details.failed) {
        const replay = `replay: FLEETCTL_FUZZ_SEED=${SEED} FLEETCTL_FUZZ_COMMAND='${name}' FLEETCTL_FUZZ_PATH='${details.counterexamplePath}' npx vitest run test/fuzz/hostile-input.test.ts`;
        const cause = details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance);
        throw new Error(`${fc.defaultReportMessage(details)}\n${cause}\n${replay}`);
      }
      // each case has its own budget (run-case.ts); this only bounds a command whose cases all run long
    }, 120_000 + RUNS * 2_000);
  }
});
