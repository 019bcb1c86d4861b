// `fleetctl --sandbox ...`: the command runs against an in-process sandbox on an ephemeral loopback port,
// as sandbox-admin, with state kept in the config directory so it persists between invocations. Invocations
// that run at once take turns with that state, request by request: each sees every change of those before it.
import path from 'node:path';
import type { Deps } from '../../factory.js';
import type { SettingsOverride } from '../../config/settings.js';
import type { SandboxOptions } from '../../sandbox/options.js';

export const EMBEDDED_ADMIN = 'sandbox-admin';

export function embeddedStatePath(configDir: string): string {
  return path.join(configDir, 'sandbox', 'state.json');
}

/**
 * Parallel `--sandbox` invocations share one world by taking turns, one request at a time (sandbox/store/
 * state-turns.ts): each request holds the state file's lock for milliseconds, so a --follow or --watch running
 * for hours never keeps another command waiting longer than one of its requests. Past this wait (a `fleetctl
 * sandbox --state` serving the same file holds it for its whole life), a command fails with exit 6 naming the lock.
 */
export const EMBEDDED_STATE_WAIT_MS = 60_000;
/** A wait for the world longer than this says so on stderr, naming who holds it: turns normally last milliseconds. */
export const EMBEDDED_NOTICE_AFTER_MS = 500;

/** The options of the embedded sandbox: the same type `fleetctl sandbox` builds from its flags. */
export function embeddedSandboxOptions(configDir: string, log: (line: string) => void): SandboxOptions {
  return {
    host: '127.0.0.1', port: 0, statePath: embeddedStatePath(configDir), shareState: true,
    stateLockWaitMs: EMBEDDED_STATE_WAIT_MS, lockNoticeAfterMs: EMBEDDED_NOTICE_AFTER_MS, lockPurpose: commandOf(process.argv), log,
  };
}

/** Flags whose value may be a secret: left out of the command a lock shows. */
const SECRET_FLAG = /secret|token|password|key|data|header/i;
const MAX_WORDS = 8;

/**
 * The command this process runs, as the lock shows it to another that waits ("fleetctl --sandbox devices events
 * HW-000001 --follow"): command words, ids and flag names only, no flag value that could be a secret.
 */
export function commandOf(argv: readonly string[]): string {
  const words: string[] = [];
  let hideNext = false;
  for (const arg of argv.slice(2)) {
    if (words.length === MAX_WORDS) {
      words.push('...');
      break;
    }
    const flag = /^(--?[A-Za-z][\w-]*)(=.*)?$/.exec(arg);
    if (flag) {
      words.push(flag[1]!);
      hideNext = flag[2] === undefined && SECRET_FLAG.test(flag[1]!);
    } else if (!hideNext && /^[\w.:-]{1,40}$/.test(arg)) {
      words.push(arg);
    } else {
      hideNext = false;
    }
  }
  return ['fleetctl', ...words].join(' ');
}

export async function startEmbeddedSandbox(deps: Pick<Deps, 'configDir' | 'onCleanup' | 'tracer' | 'io'>): Promise<SettingsOverride> {
  const tracer = deps.tracer();
  const options = { ...embeddedSandboxOptions(deps.configDir(), (line) => tracer.note(`sandbox: ${line}`)), lockNotice: (line: string) => deps.io.info(line) };
  const sandbox = await deps.io.activity.during('Starting the embedded sandbox', async () => {
    const { startSandbox, CorruptStateError } = await import('../../sandbox/index.js');
    return startSandbox(options).catch((err: unknown) => {
      if (err instanceof CorruptStateError) throw new CorruptStateError(err.file, err.reason, 'start afresh with `fleetctl sandbox reset`, or move the file away');
      throw err;
    });
  });
  deps.onCleanup(() => sandbox.close());
  const admin = sandbox.clients.find((client) => client.client_id === EMBEDDED_ADMIN);
  if (!admin) throw new Error(`the embedded sandbox has no ${EMBEDDED_ADMIN} client`);
  return {
    baseUrl: sandbox.baseUrl,
    authUrl: sandbox.authUrl,
    clientId: admin.client_id,
    clientSecret: admin.client_secret,
    organizationId: admin.organization_id,
    // Its port changes every run but its state (issued tokens included) persists: cache tokens across runs.
    tokenCacheAs: 'embedded-sandbox',
  };
}
