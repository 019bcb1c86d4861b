// The config store: named profiles and cached tokens in one JSON file (mode 0600), written atomically by conf.
import path from 'node:path';
import os from 'node:os';
import { ConfigError } from '../errors.js';
import { loadKeepingSignals } from '../io/signals.js';
import { ensureDirectory } from '../io/directories.js';
import { describeIssue, issueOf } from '../openapi/schema-check.js';

export const PROFILE_KEYS = ['base_url', 'auth_url', 'client_id', 'client_secret', 'client_secret_command', 'scopes', 'organization_id', 'ca_file'] as const;
export type ProfileKey = (typeof PROFILE_KEYS)[number];
export type Profile = Partial<Record<ProfileKey, string>> & {
  /** Set by `auth login` when the secret went to the OS keychain (it is then not in the file). */
  client_secret_store?: 'keychain';
};

export interface CachedToken {
  access_token: string;
  scope: string;
  /** ISO time after which the token is not used; absent when the issuer gave no expires_in. */
  expires_at?: string;
  obtained_at: string;
}

export interface ConfigData {
  current_profile?: string;
  profiles: Record<string, Profile>;
  tokens: Record<string, CachedToken>;
}

export interface ConfigStore {
  readonly path: string;
  read(): ConfigData;
  /** Read, change and write back the whole store; the file is replaced atomically or not at all. */
  update(change: (data: ConfigData) => void): void;
}

export function configDirectory(env: NodeJS.ProcessEnv): string {
  if (env.FLEETCTL_CONFIG_DIR) return path.resolve(env.FLEETCTL_CONFIG_DIR);
  const base = env.XDG_CONFIG_HOME || path.join(os.homedir(), '.config');
  return path.join(base, 'fleetctl');
}

export async function openConfigStore(directory: string): Promise<ConfigStore> {
  const { default: Conf } = await loadKeepingSignals(() => import('conf'));
  // the ConfigFile schema of local-files.json, compiled at build time: every command reads the store
  const { ConfigFile } = await import('../openapi/validators.gen.js');
  const shapeProblem = (value: unknown): string | undefined => {
    const issue = issueOf(ConfigFile, value);
    return issue ? describeIssue(issue) : undefined;
  };
  const file = path.join(directory, 'config.json');
  try {
    // conf would make it with a recursive mkdir, which never ends under /proc
    ensureDirectory(directory);
  } catch (error) {
    throw new ConfigError(`cannot use the config directory: ${(error as Error).message}`, 'set FLEETCTL_CONFIG_DIR to a directory you can write to');
  }
  let conf: InstanceType<typeof Conf<Record<string, unknown>>>;
  try {
    conf = new Conf<Record<string, unknown>>({
      cwd: directory,
      configName: 'config',
      configFileMode: 0o600,
      accessPropertiesByDotNotation: false,
      clearInvalidConfig: false,
      // conf turns any JSON (an array, say) into an object: check the shape of what the file really holds.
      deserialize: (text: string) => {
        const value = JSON.parse(text) as unknown;
        const problem = shapeProblem(value);
        if (problem) throw new Error(problem);
        return value as Record<string, unknown>;
      },
    });
  } catch (error) {
    throw corrupted(file, error);
  }
  const read = (): ConfigData => {
    let raw: Record<string, unknown>;
    try {
      raw = conf.store;
    } catch (error) {
      throw corrupted(file, error);
    }
    const problem = shapeProblem(raw);
    if (problem) throw corrupted(file, new Error(problem));
    return normalize(raw);
  };
  return {
    path: file,
    read,
    update(change) {
      const data = read();
      change(data);
      try {
        conf.store = data as unknown as Record<string, unknown>;
      } catch (error) {
        throw new ConfigError(`could not write the config store ${file}: ${(error as Error).message}`, 'check the permissions of the file and its folder');
      }
    },
  };
}

/** An in-memory store with the same contract, for tests. */
export function memoryConfigStore(initial: Partial<ConfigData> = {}): ConfigStore & { data: ConfigData } {
  const store = {
    path: '(memory)',
    data: { profiles: {}, tokens: {}, ...structuredClone(initial) } as ConfigData,
    read: () => structuredClone(store.data),
    update(change: (data: ConfigData) => void) {
      const next = structuredClone(store.data);
      change(next);
      store.data = next;
    },
  };
  return store;
}

function normalize(raw: Record<string, unknown>): ConfigData {
  return {
    ...(raw as object),
    current_profile: typeof raw.current_profile === 'string' ? raw.current_profile : undefined,
    profiles: nameKeyed(raw.profiles as Record<string, Profile> | undefined),
    tokens: nameKeyed(raw.tokens as Record<string, CachedToken> | undefined),
  };
}

/** Profile names are the user's (`--profile __proto__`): looked up in a map with no prototype to fall back on. */
function nameKeyed<T>(entries: Record<string, T> | undefined): Record<string, T> {
  return Object.assign(Object.create(null) as Record<string, T>, entries);
}

function corrupted(file: string, cause: unknown): ConfigError {
  const reason = cause instanceof Error ? cause.message.split('\n')[0] : String(cause);
  return new ConfigError(
    `the config store ${file} is corrupted (${reason})`,
    `fix the JSON by hand, or move the file aside (mv ${file} ${file}.bak) and run \`fleetctl auth login\` again`,
  );
}
