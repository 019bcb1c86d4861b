// `fleetctl --sandbox ...`: the command runs against an in-process sandbox on an ephemeral loopback port,
// as sandbox-admin, with state kept in the config directory so it persists between invocations. Invocations
// that run at once take turns with that state (merge under a lock): each sees every change of those before it.
import path from 'node:path';
import type { Deps } from '../../factory.js';
import type { SettingsOverride } from '../../config/settings.js';
import type { SandboxOptions } from '../../sandbox/options.js';

export const EMBEDDED_ADMIN = 'sandbox-admin';

export function embeddedStatePath(configDir: string): string {
  return path.join(configDir, 'sandbox', 'state.json');
}

/**
 * Parallel `--sandbox` invocations share one world by taking turns: each holds the state file's lock from loading
 * it to saving it (store/state-file.ts), so the others wait for it. A command holds it for well under a second,
 * a --follow or --watch for as long as it runs: past this wait, the others fail with exit 6 naming the lock.
 */
export const EMBEDDED_STATE_WAIT_MS = 60_000;

/** The options of the embedded sandbox: the same type `fleetctl sandbox` builds from its flags. */
export function embeddedSandboxOptions(configDir: string, log: (line: string) => void): SandboxOptions {
  return { host: '127.0.0.1', port: 0, statePath: embeddedStatePath(configDir), stateLockWaitMs: EMBEDDED_STATE_WAIT_MS, log };
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
