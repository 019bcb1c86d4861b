// Where a profile's client secret lives, in the order it is looked for: the environment (FLEETCTL_CLIENT_SECRET),
// a command whose output is the secret (client_secret_command: `op read ...`, `pass ...`, `vault kv get ...`, as
// git credential helpers and AWS credential_process do), the OS keychain (macOS Keychain, Windows Credential
// Manager, Secret Service on Linux), or the config file (plain text, mode 0600).
import { AuthError } from '../errors.js';
import type { Settings } from '../config/settings.js';
import type { Profile } from '../config/store.js';

export type SecretLocation = 'environment' | 'command' | 'keychain' | 'file';

/** The OS keychain, as fleetctl uses it: one entry per profile, under the service "fleetctl". */
export interface Keychain {
  /** undefined when the keychain holds nothing for the profile; rejects with KeychainUnavailable when none answers. */
  get(profile: string): Promise<string | undefined>;
  set(profile: string, secret: string): Promise<void>;
  /** Whether there was an entry. */
  delete(profile: string): Promise<boolean>;
}

export const KEYCHAIN_SERVICE = 'fleetctl';
/** A keychain that has not answered by then is taken as absent: CI machines and containers have none. */
export const KEYCHAIN_TIMEOUT_MS = 3000;
const COMMAND_TIMEOUT_MS = 30_000;

export class KeychainUnavailable extends Error {
  constructor(
    reason: string,
    /** It did not answer in time (rather than answering that there is no keychain). */
    readonly timedOut = false,
  ) {
    super(reason);
    this.name = 'KeychainUnavailable';
  }
}

/** Where the client secret of these settings comes from; undefined when there is none. */
export function secretLocation(settings: Settings, profile: Profile | undefined): SecretLocation | undefined {
  if (settings.client_secret.source === 'environment' || settings.client_secret.source === 'flag') return 'environment';
  if (settings.client_secret_command.value) return 'command';
  return storedSecretLocation(profile);
}

/** Where a profile keeps its client secret, the environment aside. */
export function storedSecretLocation(profile: Profile | undefined): SecretLocation | undefined {
  if (profile?.client_secret_command) return 'command';
  if (profile?.client_secret_store === 'keychain') return 'keychain';
  return profile?.client_secret ? 'file' : undefined;
}

/** The client secret, from wherever it lives; undefined when it lives nowhere. */
export async function readClientSecret(settings: Settings, profile: Profile | undefined, keychain: () => Keychain, signal?: AbortSignal): Promise<string | undefined> {
  const location = secretLocation(settings, profile);
  if (location === 'command') return runSecretCommand(settings.client_secret_command.value!, signal);
  if (location !== 'keychain') return settings.client_secret.value;
  const name = settings.profile.value;
  let secret: string | undefined;
  try {
    secret = await keychain().get(name);
  } catch (error) {
    throw new AuthError(`the client secret of profile "${name}" is in the system keychain, which did not answer (${(error as Error).message})`, 'unlock the keychain, or set FLEETCTL_CLIENT_SECRET');
  }
  if (secret === undefined) throw new AuthError(`the system keychain holds no client secret for profile "${name}"`, 'run `fleetctl auth login` to store it again');
  return secret;
}

/**
 * Runs client_secret_command with the shell; its standard output, trimmed, is the secret. Its output is never
 * shown: a failure says the exit code and the first line of its standard error.
 */
export async function runSecretCommand(command: string, signal?: AbortSignal): Promise<string> {
  const fail = (why: string) => new AuthError(`client_secret_command ${why}`, 'check the command with `fleetctl config get client_secret_command`; it must print the secret and exit 0');
  // loaded here: every command that calls the API reads the secret through this module, few run a command for it
  const { runShellCommand, shellFailure } = await import('../io/shell-command.js');
  let result;
  try {
    result = await runShellCommand(command, { timeoutMs: COMMAND_TIMEOUT_MS, ...(signal ? { signal } : {}) });
  } catch (error) {
    if (signal?.aborted) throw signal.reason;
    throw fail(`could not run: ${(error as Error).message}`);
  }
  const failure = shellFailure(result, COMMAND_TIMEOUT_MS);
  if (failure) throw fail(failure);
  const secret = result.stdout.trim();
  if (!secret) throw fail('printed nothing');
  return secret;
}

/** Puts the secret in the keychain; says where it must go instead (the file), and why, when no keychain answers. */
export async function storeInKeychain(keychain: Keychain, profile: string, secret: string): Promise<{ where: 'keychain' } | { where: 'file'; reason: string }> {
  try {
    await keychain.set(profile, secret);
    return { where: 'keychain' };
  } catch (error) {
    return { where: 'file', reason: (error as Error).message };
  }
}

/** The keychain of this machine, through @napi-rs/keyring, each call bounded by KEYCHAIN_TIMEOUT_MS. */
export function systemKeychain(timeoutMs = KEYCHAIN_TIMEOUT_MS): Keychain {
  const entry = async (profile: string) => {
    const { AsyncEntry } = await import('@napi-rs/keyring');
    // Linux: the Secret Service only; the kernel keyring it could fall back to forgets everything at logout.
    return new AsyncEntry(KEYCHAIN_SERVICE, profile, { linux: { store: 'secret-service' } });
  };
  return boundedKeychain(
    {
      get: async (profile, signal) => (await (await entry(profile)).getPassword(signal)) ?? undefined,
      set: async (profile, secret, signal) => (await entry(profile)).setPassword(secret, signal),
      delete: async (profile, signal) => (await entry(profile)).deletePassword(signal),
    },
    timeoutMs,
  );
}

/** FLEETCTL_KEYCHAIN=off: as if the machine had no keychain. */
export function switchedOffKeychain(): Keychain {
  const off = async (): Promise<never> => {
    throw new KeychainUnavailable('turned off by FLEETCTL_KEYCHAIN=off');
  };
  return { get: off, set: off, delete: off };
}

/** A keychain backend whose calls take an abort signal, as @napi-rs/keyring's do. */
export interface KeychainBackend {
  get(profile: string, signal: AbortSignal): Promise<string | undefined>;
  set(profile: string, secret: string, signal: AbortSignal): Promise<void>;
  delete(profile: string, signal: AbortSignal): Promise<boolean>;
}

/** Every call answers within timeoutMs: a keychain that does not (locked, waiting for a prompt) counts as absent. */
export function boundedKeychain(backend: KeychainBackend, timeoutMs: number): Keychain {
  const bounded = async <T>(call: (signal: AbortSignal) => Promise<T>): Promise<T> => {
    const signal = AbortSignal.timeout(timeoutMs);
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => reject(new KeychainUnavailable(`no answer within ${timeoutMs / 1000} s`, true)), timeoutMs);
    });
    try {
      return await Promise.race([call(signal), late]);
    } catch (error) {
      throw error instanceof KeychainUnavailable ? error : new KeychainUnavailable(firstLine(error));
    } finally {
      clearTimeout(timer);
    }
  };
  return {
    get: (profile) => bounded((signal) => backend.get(profile, signal)),
    set: (profile, secret) => bounded((signal) => backend.set(profile, secret, signal)),
    delete: (profile) => bounded((signal) => backend.delete(profile, signal)),
  };
}

function firstLine(error: unknown): string {
  return String((error as Error)?.message ?? error).split('\n')[0]!.replace(/^Platform failure: /, '');
}
