// `kill -9` of a bulk reboot at each phase of its journal, watched from outside: right after the header is
// written, after the Nth result line, after the last line (its lock still held), and as the lock is unlinked. The
// journal's folder is watched (inotify, and a 1 ms poll besides) and the process killed the moment the phase is
// seen; the journal as the kill left it then says which phase was hit, and a trial that came too late (the run got
// further, or ended) is tried again, up to ATTEMPTS times per phase. Each trial, hit or not, is then finished with
// `--resume RUN_ID` and judged by the sandbox's own command log: every device rebooted exactly once, and a retry
// with the same --idempotency-key replays every answer. For the embedded sandbox (`--sandbox`, its log in its
// state file) and for a separate one (`fleetctl sandbox`, its log at /_sandbox/commands), whose reboots are
// slowed by 15 ms (a fault rule) so that one result line and the next are apart. FLEETCTL_CRASH_PHASE_ROUNDS=N
// hits each phase N times (1 by default).
import { existsSync, mkdirSync, readdirSync, readFileSync, watch, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { suiteTempDir, tempDir } from '../support/temp-dir.js';
import { runCli } from './harness.js';
import { startCliSandbox, type CliSandbox } from './cli-sandbox.js';
import { embeddedCommandLog, executionsOf, REBOOTABLE, rebootArgs, spawnFleetctl, type CommandLogEntry } from './crash-trial.js';

const ROUNDS = Number(process.env.FLEETCTL_CRASH_PHASE_ROUNDS ?? 1);
const ATTEMPTS = 8;
const NTH = 10;

/** The journal of the run under way, as read from outside. */
interface JournalSeen {
  /** Its header is whole. */
  header: boolean;
  /** Whole result lines after it. */
  results: number;
  /** Its lock file was seen, and is there now. */
  lockSeen: boolean;
  locked: boolean;
}

interface Phase {
  name: string;
  /** The moment to kill. */
  reached(seen: JournalSeen): boolean;
  /** What the journal holds when the kill came at that moment, not later. */
  hit(seen: JournalSeen): boolean;
}

const PHASES: Phase[] = [
  { name: 'right after the header', reached: (j) => j.header, hit: (j) => j.header && j.results === 0 },
  { name: `after result line ${NTH}`, reached: (j) => j.results >= NTH, hit: (j) => j.results === NTH },
  { name: 'after the last result line', reached: (j) => j.results >= REBOOTABLE, hit: (j) => j.results === REBOOTABLE && j.locked },
  { name: 'as the lock is unlinked', reached: (j) => j.lockSeen && !j.locked, hit: (j) => j.results === REBOOTABLE && j.lockSeen && !j.locked },
];

function readJournal(runsDir: string, lockSeen: boolean): JournalSeen & { runId?: string } {
  const name = readdirSync(runsDir).find((entry) => entry.endsWith('.ndjson'));
  if (!name) return { header: false, results: 0, lockSeen, locked: false };
  const file = path.join(runsDir, name);
  const locked = existsSync(`${file}.lock`);
  const text = readFileSync(file, 'utf8');
  // whole lines only: the last one may be in the middle of its write
  const lines = text.slice(0, text.lastIndexOf('\n') + 1).split('\n').filter(Boolean).map((line) => JSON.parse(line) as { type?: string; run_id?: string });
  const header = lines[0]?.type === 'run';
  return { header, results: lines.filter((line) => line.type === 'result').length, lockSeen: lockSeen || locked, locked, runId: header ? lines[0]!.run_id : undefined };
}

/** The reboot, killed by SIGKILL as soon as its journal shows `phase`; the journal as the kill left it. */
function killedAt(phase: Phase, args: string[], env: Record<string, string>, runsDir: string) {
  return new Promise<{ seen: JournalSeen & { runId?: string }; killed: boolean; stderr: string }>((resolve, reject) => {
    const child = spawnFleetctl(args, env);
    let stderr = '';
    let lockSeen = false;
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const look = () => {
      try {
        const seen = readJournal(runsDir, lockSeen);
        lockSeen = seen.lockSeen;
        if (phase.reached(seen)) child.kill('SIGKILL');
      } catch {
        // a file read between its creation and its first write, or one being unlinked: the next look sees it
      }
    };
    const watcher = watch(runsDir, look);
    const poll = setInterval(look, 1);
    child.on('error', reject);
    child.on('close', (_code, signal) => {
      watcher.close();
      clearInterval(poll);
      resolve({ seen: readJournal(runsDir, lockSeen), killed: signal === 'SIGKILL', stderr });
    });
  });
}

interface SandboxUnderTest {
  /** The flags and environment a command against it needs, with `configDir` as fleetctl's config folder. */
  args(args: string[]): string[];
  env(configDir: string): Record<string, string>;
  commandLog(configDir: string): Promise<CommandLogEntry[]>;
}

/** Kills at each phase, finishes each trial by --resume and checks it by the command log; how many attempts each phase took. */
async function trialsAt(sandbox: SandboxUnderTest, label: string): Promise<Record<string, number>> {
  const attemptsOf: Record<string, number> = {};
  for (let round = 0; round < ROUNDS; round++) {
    for (const [index, phase] of PHASES.entries()) {
      let hit = false;
      for (let attempt = 1; attempt <= ATTEMPTS && !hit; attempt++) {
        const configDir = tempDir('fleetctl-phase-');
        const runsDir = path.join(configDir, 'runs');
        mkdirSync(runsDir, { recursive: true, mode: 0o700 });
        const env = sandbox.env(configDir);
        const key = `phase-${label}-${round}-${index}-${attempt}`;
        const why = `${label}, killed ${phase.name} (round ${round}, attempt ${attempt})`;
        // one device at a time: the phases are apart
        const crashed = await killedAt(phase, sandbox.args(rebootArgs(key, '--concurrency', '1')), env, runsDir);
        hit = crashed.killed && phase.hit(crashed.seen);
        attemptsOf[phase.name] = attempt;
        expect(crashed.seen.runId, `${why}: ${crashed.stderr}`).toBeDefined();

        const finish = await runCli(sandbox.args(['devices', 'reboot', '--resume', crashed.seen.runId!, '--yes']), { env, process: true });
        expect(finish.code, `${why}: ${finish.stderr}`).toBe(0);
        const executed = executionsOf(await sandbox.commandLog(configDir), key);
        expect([...executed.values()].filter((n) => n !== 1), why).toEqual([]);
        expect(executed.size, why).toBe(REBOOTABLE);

        const retry = await runCli(sandbox.args(rebootArgs(key)), { env, process: true });
        expect(retry.code, `${why}: ${retry.stderr}`).toBe(0);
        expect(retry.stderr, why).toContain(`${REBOOTABLE} devices: 0 accepted, ${REBOOTABLE} replayed`);
        expect(executionsOf(await sandbox.commandLog(configDir), key), why).toEqual(executed);
      }
      expect(hit, `${label}: no kill landed ${phase.name} in ${ATTEMPTS} attempts`).toBe(true);
    }
  }
  return attemptsOf;
}

describe('kill -9 at each phase of the journal, then --resume: each device executed once', () => {
  it('the embedded sandbox (--sandbox)', async () => {
    const embedded: SandboxUnderTest = {
      args: (args) => ['--sandbox', ...args],
      env: (configDir) => ({ FLEETCTL_CONFIG_DIR: configDir }),
      commandLog: embeddedCommandLog,
    };
    console.info('embedded sandbox, attempts per phase:', await trialsAt(embedded, 'embedded'));
  }, 600_000);

  describe('a separate sandbox (fleetctl sandbox)', () => {
    const folder = suiteTempDir('fleetctl-phase-faults-');
    let sandbox: CliSandbox;
    beforeAll(async () => {
      const faults = path.join(folder, 'slow-reboots.json');
      writeFileSync(faults, JSON.stringify([{ match: { operation_id: 'rebootDevice' }, respond: { delay_ms: 15 } }]));
      sandbox = await startCliSandbox(['--fault', faults]);
    }, 60_000);
    afterAll(async () => {
      await sandbox?.stop();
    });

    it('its command log at /_sandbox/commands', async () => {
      const admin = sandbox.facts.clients.find((client) => client.client_id === 'sandbox-admin')!;
      const separate: SandboxUnderTest = {
        args: (args) => args,
        env: (configDir) => ({
          FLEETCTL_BASE_URL: sandbox.facts.base_url, FLEETCTL_AUTH_URL: sandbox.facts.auth_url, FLEETCTL_CLIENT_ID: admin.client_id,
          FLEETCTL_CLIENT_SECRET: admin.client_secret, FLEETCTL_CONFIG_DIR: configDir,
        }),
        commandLog: async () => {
          const body = await sandbox.json<CommandLogEntry[] | { data: CommandLogEntry[] }>('/_sandbox/commands');
          return Array.isArray(body) ? body : body.data;
        },
      };
      console.info('separate sandbox, attempts per phase:', await trialsAt(separate, 'separate'));
    }, 600_000);
  });
});
