// Keychains for tests: tests never touch the keychain of the machine they run on.
import { KeychainUnavailable, type Keychain } from '../../src/auth/secret-store.js';

/** A keychain that holds entries in memory; `entries` shows what it holds. */
export function memoryKeychain(initial: Record<string, string> = {}): Keychain & { entries: Map<string, string> } {
  const entries = new Map(Object.entries(initial));
  return {
    entries,
    get: async (profile) => entries.get(profile),
    set: async (profile, secret) => void entries.set(profile, secret),
    delete: async (profile) => entries.delete(profile),
  };
}

/** A machine without a keychain (CI, containers): every call fails at once, as the system one does there. */
export function absentKeychain(): Keychain {
  const none = async (): Promise<never> => {
    throw new KeychainUnavailable('DBus error: no session bus (test)');
  };
  return { get: none, set: none, delete: none };
}
