// Precedence: flags > environment > profile > defaults; each value remembers where it came from.
import type { ConfigData, ProfileKey } from './store.js';
import { UsageError } from '../errors.js';
import { hasControlCharacters, quoteInput } from '../shared/terminal-text.js';
import { didYouMean } from '../shared/did-you-mean.js';

export type SettingSource = 'flag' | 'environment' | 'profile' | 'default';

export interface Setting {
  value: string | undefined;
  source: SettingSource | undefined;
}

/**
 * The selected profile and every profile key (client_secret_command: a command whose standard output is the
 * client secret; ca_file: a PEM bundle of certificate authorities trusted on top of the usual roots; ledger_file: where
 * the audit ledger goes, src/ledger/).
 */
export type Settings = { profile: Setting & { value: string } } & Record<ProfileKey, Setting> & {
  /** Names the token issuer in the token cache instead of auth_url (an override's, whose port changes). */
  tokenCacheAs?: string;
};

/** Endpoints and credentials that replace the configured ones: the embedded sandbox of `--sandbox`. */
export interface SettingsOverride {
  baseUrl: string;
  authUrl: string;
  clientId: string;
  clientSecret: string;
  organizationId?: string;
  /** Names the issuer in the token cache when its URL changes from run to run (an ephemeral port). */
  tokenCacheAs?: string;
}

export interface SettingFlags {
  profile?: string;
  baseUrl?: string;
  authUrl?: string;
  caFile?: string;
}

export const DEFAULT_PROFILE = 'default';

/** FLEETCTL_ and the key in capitals: FLEETCTL_BASE_URL, FLEETCTL_CLIENT_SECRET, FLEETCTL_CA_FILE ...; the ledger's is FLEETCTL_LEDGER. */
export function environmentVariableFor(key: ProfileKey): string {
  return key === 'ledger_file' ? 'FLEETCTL_LEDGER' : `FLEETCTL_${key.toUpperCase()}`;
}

export function selectedProfile(flags: SettingFlags, env: NodeJS.ProcessEnv, data: ConfigData | undefined): Setting & { value: string } {
  const named = namedProfile(flags, env);
  if (named) return { value: named.name, source: named.by === '--profile' ? 'flag' : 'environment' };
  if (data?.current_profile) return { value: data.current_profile, source: 'profile' };
  return { value: DEFAULT_PROFILE, source: 'default' };
}

/** The profile the operator names for this command (--profile, then FLEETCTL_PROFILE), if any. */
export function namedProfile(flags: SettingFlags, env: NodeJS.ProcessEnv): { name: string; by: '--profile' | 'FLEETCTL_PROFILE' } | undefined {
  if (flags.profile) return { name: checkProfileName(flags.profile, '--profile'), by: '--profile' };
  if (env.FLEETCTL_PROFILE) return { name: checkProfileName(env.FLEETCTL_PROFILE, 'FLEETCTL_PROFILE'), by: 'FLEETCTL_PROFILE' };
  return undefined;
}

/**
 * A profile named now that the store does not have is a typo until shown otherwise: `no profile readr; did you
 * mean reader?` (exit 2), with how to make one. "default" always exists: a first run with nothing stored and the
 * credentials in the environment works without any profile.
 */
export function requireStoredProfile(name: string, data: ConfigData, namedBy: string): void {
  const stored = Object.keys(data.profiles);
  if (name === DEFAULT_PROFILE || stored.includes(name)) return;
  const guess = didYouMean(name, stored);
  throw new UsageError(
    `no profile ${name}${guess ? `; ${guess}` : ''}`,
    `${namedBy} named it; ${stored.length > 0 ? `the profiles are ${stored.sort().join(', ')}` : 'no profile is stored yet'}; ` +
      `to make it: fleetctl config use ${name} --create, or fleetctl --profile ${name} auth login`,
  );
}

/**
 * Each setting from the first place that has it. An override (--sandbox) stands as flags for the profile
 * "sandbox": its endpoints, credentials and organization replace whatever is configured.
 */
export function resolveSettings(flags: SettingFlags, env: NodeJS.ProcessEnv, data: ConfigData | undefined, override?: SettingsOverride): Settings {
  const settings = configuredSettings(flags, env, data);
  if (!override) return settings;
  const flag = (value: string | undefined): Setting => ({ value, source: 'flag' });
  return {
    ...settings,
    profile: { value: 'sandbox', source: 'flag' },
    base_url: flag(override.baseUrl),
    auth_url: flag(override.authUrl),
    client_id: flag(override.clientId),
    client_secret: flag(override.clientSecret),
    organization_id: flag(override.organizationId),
    tokenCacheAs: override.tokenCacheAs,
  };
}

function configuredSettings(flags: SettingFlags, env: NodeJS.ProcessEnv, data: ConfigData | undefined): Settings {
  const profile = selectedProfile(flags, env, data);
  const stored = data?.profiles[profile.value] ?? {};
  const pick = (key: ProfileKey, flag: string | undefined): Setting => {
    if (flag !== undefined && flag !== '') return { value: flag, source: 'flag' };
    const fromEnv = env[environmentVariableFor(key)];
    if (fromEnv !== undefined && fromEnv !== '') return { value: fromEnv, source: 'environment' };
    const fromProfile = stored[key];
    if (fromProfile !== undefined && fromProfile !== '') return { value: fromProfile, source: 'profile' };
    return { value: undefined, source: undefined };
  };
  const baseUrl = pick('base_url', flags.baseUrl);
  const authUrl = pick('auth_url', flags.authUrl);
  return {
    profile,
    base_url: { ...baseUrl, value: baseUrl.value && trimSlash(baseUrl.value) },
    // The token issuer often lives beside the API: without an auth URL, the base URL is used.
    auth_url: authUrl.value
      ? { ...authUrl, value: trimSlash(authUrl.value) }
      : { value: baseUrl.value && trimSlash(baseUrl.value), source: baseUrl.value ? 'default' : undefined },
    client_id: pick('client_id', undefined),
    client_secret: pick('client_secret', undefined),
    client_secret_command: pick('client_secret_command', undefined),
    scopes: pick('scopes', undefined),
    organization_id: pick('organization_id', undefined),
    ca_file: pick('ca_file', flags.caFile),
    ledger_file: pick('ledger_file', undefined),
  };
}

function trimSlash(url: string): string {
  return url.replace(/\/+$/, '');
}

/** Profile names are short labels: a name with control characters or of a thousand characters is a mistake. */
export const MAX_PROFILE_NAME = 64;

export function checkProfileName(name: string, what: string): string {
  if (name.trim() === '' || name.length > MAX_PROFILE_NAME || hasControlCharacters(name)) {
    throw new UsageError(`${what} must be a profile name of 1 to ${MAX_PROFILE_NAME} printable characters, got ${quoteInput(name, 40)}`);
  }
  return name;
}

/** The profile's saved selections (fleetctl selection save): a name and its expression (selection/saved.ts looks them up). */
export function savedSelections(data: ConfigData, profile: string): Readonly<Record<string, string>> {
  return data.profiles[profile]?.selections ?? {};
}
