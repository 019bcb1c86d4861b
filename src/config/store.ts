// The config store: named profiles and cached tokens in one JSON file (mode 0600), each change made under a
// cross-process lock (src/io/file-lock.ts). For a change, conf reads it, checks it against local-files.json's
// ConfigFile (its `schema` option: ajv inside conf) and writes it atomically; the types are that document's
// (local-files.gen.ts).
import path from 'node:path';
import os from 'node:os';
import { readFileSync } from 'node:fs';
import { ConfigError, diskFullOf } from '../errors.js';
import { loadKeepingSignals } from '../io/signals.js';
import { ensureDirectory } from '../io/directories.js';
import { removeLeftoverTemporaries } from '../io/atomic-file.js';
import { acquireLock } from '../io/file-lock.js';
import { describeIssue, issueOf } from '../openapi/schema-check.js';
import type { components } from '../openapi/local-files.gen.js';
import localFiles from '../openapi/local-files.json' with { type: 'json' };

type LocalFile = components['schemas'];
export type Profile = LocalFile['Profile'];
export type CachedToken = LocalFile['CachedToken'];
/** ConfigFile as read: its maps always there (empty when the file lacks them), tokens as fleetctl writes them. */
export type ConfigData = Omit<LocalFile['ConfigFile'], 'profiles' | 'tokens'> & {
  profiles: Record<string, Profile>;
  tokens: Record<string, CachedToken>;
};

/** The settings of a profile (its string members: client_secret_store says where the secret is, it is not one). */
export const PROFILE_KEYS = ['base_url', 'auth_url', 'client_id', 'client_secret', 'client_secret_command', 'scopes', 'organization_id', 'ca_file', 'ledger_file'] as const satisfies readonly (keyof Profile)[];
export type ProfileKey = (typeof PROFILE_KEYS)[number];

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
 * conf reads, checks and writes the file whenever the store changes. Reading alone (every command that calls the
 * API reads the store, few change it) is one JSON.parse and the same ConfigFile schema as code compiled at build:
 * conf compiles its schema as it opens, and conf with ajv's compiler would double the CPU time of `config list`
 * (test/build/startup.test.ts holds reading to that; test/config/conf-limits.test.ts shows conf's own check).
 */
export async function openConfigStore(directory: string, opts: { lockWaitMs?: number; notice?: (line: string) => void } = {}): Promise<ConfigStore> {
  const file = path.join(directory, 'config.json');
  try {
    // conf makes it too, with a recursive mkdir, which never ends where mkdir answers ENOENT for a parent that
    // exists (under /proc): made here first, a directory that cannot be is one line (test/config/conf-limits.test.ts)
    ensureDirectory(directory);
  } catch (error) {
    throw new ConfigError(`cannot use the config directory: ${(error as Error).message}`, 'set FLEETCTL_CONFIG_DIR to a directory you can write to');
  }
  const { ConfigFile } = await import('../openapi/config-validator.gen.js');
  // A call reads the store several times (its settings, the profile's secret, the token): the same text as the
  // last read is not parsed and checked again. Each read gets a copy of its own.
  let last: { text: string; value: Record<string, unknown> } | undefined;
  const read = (): ConfigData => {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return normalize({});
      throw corrupted(file, error);
    }
    if (last?.text === text) return normalize(structuredClone(last.value));
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      throw corrupted(file, error);
    }
    if (!isRecord(value)) throw corrupted(file, new Error('the file does not hold a JSON object'));
    const issue = issueOf(ConfigFile, value);
    if (issue) throw corrupted(file, new Error(describeIssue(issue)));
    last = { text, value: structuredClone(value) };
    return normalize(value);
  };
  let loading: Promise<typeof import('conf').default> | undefined;
  let conf: ConfFile | undefined;
  return {
    path: file,
    read,
    async update(change) {
      // conf is loaded, and its schema compiled, before the lock is taken: it holds the lock only for a read and a write
      loading ??= loadKeepingSignals(() => import('conf')).then((module) => module.default);
      const Conf = await loading;
      // made again after a failure: a corrupted file refuses each change until it is fixed
      conf ??= opened(() => new Conf<Record<string, unknown>>(confOptions(directory)), file);
      const writer = conf;
      // Other fleetctl processes change the file too (xargs -P, CI matrix jobs): the file is read again under the
      // lock and only this change applied to it, so a token cached meanwhile never undoes someone's `config set`.
      const lock = await acquireLock(`${file}.lock`, { what: 'the config store', waitMs: opts.lockWaitMs ?? CONFIG_LOCK_WAIT_MS, purpose: 'a change of the config store', notice: opts.notice });
      try {
        // under the lock: never the temporary of a change being written now
        removeLeftoverTemporaries(directory, LEFTOVER_TEMPORARY);
        // read (conf checks the file), change and write with no await between: two updates never interleave
        const data = normalize(opened(() => writer.store, file));
        change(data);
        try {
          writer.store = data as unknown as Record<string, unknown>;
        } catch (error) {
          throw diskFullOf(error, file) ?? new ConfigError(`could not write the config store ${file}: ${(error as Error).message.split('\n')[0]}`, 'check the permissions of the file and its folder');
        }
      } finally {
        lock.release();
      }
    },
  };
}

/** conf writes config.json.tmp-* and renames it: a process killed between the two left one, never used again. */
const LEFTOVER_TEMPORARY = /^config\.json\.tmp-/;

/** What conf answers, or the file's failure (invalid JSON, ConfigFile not fitting) as a ConfigError. */
function opened<T>(use: () => T, file: string): T {
  try {
    return use();
  } catch (error) {
    throw corrupted(file, error);
  }
}

const isRecord = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * conf's `schema` and `rootSchema` options for local-files.json's ConfigFile: conf checks {type: object, properties:
 * schema} merged over rootSchema, so the members go in `schema` and the rest, with the $defs they refer to, in
 * `rootSchema`. An array, a wrong member type, a profile that is not an object: each refused as conf reads the file.
 */
export function configFileSchema() {
  const defs = localFiles.$defs as Record<string, object>;
  const { properties, ...root } = defs.ConfigFile as { properties: object };
  const used = new Set<string>();
  const visit = (schema: object): void => {
    for (const [, name] of JSON.stringify(schema).matchAll(/"#\/\$defs\/(\w+)"/g)) {
      if (used.has(name!)) continue;
      used.add(name!);
      visit(defs[name!]!);
    }
  };
  visit(defs.ConfigFile!);
  const $defs = Object.fromEntries([...used].map((name) => [name, defs[name]]));
  return { schema: properties as never, rootSchema: { ...root, $defs } as never };
}

const confOptions = (directory: string) => ({
  cwd: directory,
  configName: 'config',
  configFileMode: 0o600,
  accessPropertiesByDotNotation: false,
  // conf's default; said here because resetting the file is what the store promises never to do
  clearInvalidConfig: false,
  ...configFileSchema(),
  // The schema is local-files.json's, checked against JSON Schema's meta-schema by test/config/store.test.ts.
  // Checking it again on every open compiled the 2020-12 meta-schema first: about 120 ms of CPU in each command
  // that writes the store (every first token fetch), more than checking the file itself costs. The first problem
  // found is the one reported (as the read path does), which makes the compiled check smaller and faster to build.
  ajvOptions: { validateSchema: false, meta: false, allErrors: false },
});

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

/** What ConfigFile's check accepted, with its maps made safe to index by the user's names. */
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
  // conf names a member by its JSON pointer: the whole file's is empty
  const reason = (cause instanceof Error ? cause.message.split('\n')[0]! : String(cause)).replace('`` must', 'the file must');
  return new ConfigError(
    `the config store ${file} is corrupted (${reason})`,
    `fix the JSON by hand, or move the file aside (mv ${file} ${file}.bak) and run \`fleetctl auth login\` again`,
  );
}
