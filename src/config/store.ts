// The config store: named profiles and cached tokens in one JSON file (mode 0600), written atomically by conf,
// each change made under a cross-process lock (src/shared/file-lock.ts).
import path from 'node:path';
import os from 'node:os';
import { readFileSync } from 'node:fs';
import { ConfigError } from '../errors.js';
import { loadKeepingSignals } from '../io/signals.js';
import { ensureDirectory } from '../io/directories.js';
import { acquireLock } from '../shared/file-lock.js';
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
  /**
   * Read, change and write back the whole store under its lock (config.json.lock), re-reading it there; the file
   * is replaced atomically or not at all. Readers take no lock: they see the file before a change or after it.
   */
  update(change: (data: ConfigData) => void): Promise<void>;
}

/**
 * A change holds the lock for a read and a write, milliseconds; dozens of processes queued on a loaded machine
 * may wait seconds. Waiting this long means the holder is stuck, not busy.
 */
export const CONFIG_LOCK_WAIT_MS = 30_000;

export function configDirectory(env: NodeJS.ProcessEnv): string {
  if (env.FLEETCTL_CONFIG_DIR) return path.resolve(env.FLEETCTL_CONFIG_DIR);
  const base = env.XDG_CONFIG_HOME || path.join(os.homedir(), '.config');
  return path.join(base, 'fleetctl');
}

type ConfFile = InstanceType<typeof import('conf').default<Record<string, unknown>>>;

/**
 * Reading is one JSON.parse, as conf's own read is: conf (with the ajv and semver it loads, a third of what a
 * `devices get` would otherwise load) comes with the first write, which most commands never make.
 */
export async function openConfigStore(directory: string, opts: { lockWaitMs?: number } = {}): Promise<ConfigStore> {
  const file = path.join(directory, 'config.json');
  try {
    // conf would make it with a recursive mkdir, which never ends under /proc
    ensureDirectory(directory);
  } catch (error) {
    throw new ConfigError(`cannot use the config directory: ${(error as Error).message}`, 'set FLEETCTL_CONFIG_DIR to a directory you can write to');
  }
  // the ConfigFile schema of local-files.json, compiled at build time: every command reads the store
  const { ConfigFile } = await import('../openapi/config-validator.gen.js');
  const shapeProblem: ShapeCheck = (value) => {
    if (!isRecord(value)) return 'the file does not hold a JSON object';
    const issue = issueOf(ConfigFile, value);
    return issue ? describeIssue(issue) : undefined;
  };
  let conf: Promise<ConfFile> | undefined;
  const read = (): ConfigData => {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return normalize({});
      throw corrupted(file, error);
    }
    try {
      return normalize(deserialize(text, shapeProblem));
    } catch (error) {
      throw error instanceof ConfigError ? error : corrupted(file, error);
    }
  };
  return {
    path: file,
    read,
    async update(change) {
      // Other fleetctl processes change the file too (xargs -P, CI matrix jobs): the file is read again under the
      // lock and only this change applied to it, so a token cached meanwhile never undoes someone's `config set`.
      // conf is loaded before the lock is taken: it holds the lock only for a read and a write
      conf ??= openConf(directory, file, shapeProblem);
      const writer = await conf;
      const lock = await acquireLock(`${file}.lock`, { what: 'the config store', waitMs: opts.lockWaitMs ?? CONFIG_LOCK_WAIT_MS, purpose: 'a change of the config store' });
      try {
        // read, change and write with no await between: two updates of one process never interleave
        const data = read();
        change(data);
        try {
          writer.store = data as unknown as Record<string, unknown>;
        } catch (error) {
          throw new ConfigError(`could not write the config store ${file}: ${(error as Error).message}`, 'check the permissions of the file and its folder');
        }
      } finally {
        lock.release();
      }
    },
  };
}

/** conf turns any JSON (an array, say) into an object: check the shape of what the file really holds. */
type ShapeCheck = (value: unknown) => string | undefined;

function deserialize(text: string, shapeProblem: ShapeCheck): Record<string, unknown> {
  const value = JSON.parse(text) as unknown;
  const problem = shapeProblem(value);
  if (problem) throw new Error(problem);
  return value as Record<string, unknown>;
}

async function openConf(directory: string, file: string, shapeProblem: ShapeCheck): Promise<ConfFile> {
  const { default: Conf } = await loadKeepingSignals(() => import('conf'));
  try {
    return new Conf<Record<string, unknown>>({
      cwd: directory,
      configName: 'config',
      configFileMode: 0o600,
      accessPropertiesByDotNotation: false,
      clearInvalidConfig: false,
      deserialize: (text: string) => deserialize(text, shapeProblem),
    });
  } catch (error) {
    throw corrupted(file, error);
  }
}

/** An in-memory store with the same contract, for tests. */
export function memoryConfigStore(initial: Partial<ConfigData> = {}): ConfigStore & { data: ConfigData } {
  const store = {
    path: '(memory)',
    data: { profiles: {}, tokens: {}, ...structuredClone(initial) } as ConfigData,
    read: () => structuredClone(store.data),
    async update(change: (data: ConfigData) => void) {
      const next = structuredClone(store.data);
      change(next);
      store.data = next;
    },
  };
  return store;
}

/** What deserialize accepted, with its maps made safe to index by the user's names. */
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

const isRecord = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

function corrupted(file: string, cause: unknown): ConfigError {
  const reason = cause instanceof Error ? cause.message.split('\n')[0] : String(cause);
  return new ConfigError(
    `the config store ${file} is corrupted (${reason})`,
    `fix the JSON by hand, or move the file aside (mv ${file} ${file}.bak) and run \`fleetctl auth login\` again`,
  );
}
