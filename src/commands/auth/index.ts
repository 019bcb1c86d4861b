// auth login|status|token|logout.
import { Command } from 'commander';
import type { Deps } from '../../factory.js';
import { recordedChange } from '../../ledger/recorder.js';
import { resolveSettings, type Settings } from '../../config/settings.js';
import { PROFILE_KEYS, type Profile } from '../../config/store.js';
import { shortScope } from '../../auth/scopes.js';
import { knownScopes } from '../../auth/token-for-scopes.js';
import { dropProfileTokens, isIssuedTo, parseTokenCacheKey, tokenOwner } from '../../auth/token-key.js';
import { KeychainUnavailable, secretLocation, storedSecretLocation, type SecretLocation } from '../../auth/secret-store.js';
import { SCOPES } from '../../openapi/operations.js';
import { completeValues } from '../../completion/values.js';
import { API_USES, describeVerb } from '../shared/help.js';
import { newAuthLoginCommand } from './login.js';
import { BROKER_VARIABLE } from '../../extensions/broker-variable.js';

export function newAuthCommand(deps: Deps): Command {
  const auth = new Command('auth').description('Client-credentials login, status and tokens');

  const status = new Command('status').description('Show the profile, endpoints, client and cached tokens (never a secret or token)');
  describeVerb(status, { output: 'records', uses: ['profile', 'endpoints', 'sandbox'], examples: [{ comment: 'where each setting comes from', command: 'fleetctl auth status' }] });
  status.action(async () => {
    const settings = await deps.settings();
    const store = await deps.config();
    const now = deps.clock.now().getTime();
    const clientId = settings.client_id.value;
    const secret = settings.client_secret.value;
    const issuer = settings.tokenCacheAs ?? settings.auth_url.value;
    const current = clientId && secret && issuer ? tokenOwner({ profile: settings.profile.value, issuer, clientId, clientSecret: secret }) : undefined;
    const tokens = Object.entries(store.read().tokens).flatMap(([key, token]) => {
      const owner = parseTokenCacheKey(key);
      if (!owner || owner.profile !== settings.profile.value) return [];
      const expired = token.expires_at !== undefined && Date.parse(token.expires_at) <= now;
      // A token fetched with other credentials (a rotated secret, another client) is kept but never used.
      const usable = current !== undefined && isIssuedTo(owner, current);
      const state = expired ? 'expired' : usable ? 'valid' : 'other credentials';
      return [{ scope: owner.scope, client_id: owner.clientId, expires_at: token.expires_at ?? null, state }];
    });
    const setting = (key: (typeof PROFILE_KEYS)[number]) => ({
      value: key === 'client_secret' ? (settings[key].value ? '(set, hidden)' : null) : (settings[key].value ?? null),
      source: settings[key].source ?? null,
    });
    const data = store.read();
    const secrets = secretLocations(settings, data.profiles);
    const report = {
      profile: settings.profile.value,
      profile_source: settings.profile.source,
      config_file: store.path,
      settings: Object.fromEntries(PROFILE_KEYS.map((key) => [key, setting(key)])),
      secrets,
      tokens,
    };
    const output = deps.output();
    if (output.isMachineReadable) return output.object(report);
    deps.io.info(`Profile "${report.profile}" (${report.profile_source}), stored in ${report.config_file}`);
    await output.list(
      PROFILE_KEYS.map((key) => ({ setting: key, ...report.settings[key] })),
      ['setting', 'value', 'source'],
    );
    await output.list(secrets, ['profile', 'secret']);
    for (const { profile } of secrets.filter((s) => s.secret === 'file')) {
      const flag = profile === settings.profile.value ? '' : ` --profile ${profile}`;
      deps.io.warn(`the client secret of profile "${profile}" is in plain text in ${store.path} (mode 0600); \`fleetctl${flag} auth login\` moves it to the system keychain when one answers`);
    }
    if (tokens.length === 0) deps.io.info('No cached tokens.');
    // on a terminal every scope shares the prefix thirdparty.api.: what tells them apart is what follows it
    else await output.list(deps.io.stdoutIsTTY ? tokens.map((t) => ({ ...t, scope: t.scope.split(' ').map(shortScope).join(' ') })) : tokens, ['scope', 'client_id', 'expires_at', 'state']);
  });

  const token = new Command('token')
    .description('Print an access token for the scopes asked, from the token cache or else fetched with the profile\'s credentials (never the client secret), for curl and extensions')
    .requiredOption('--scope <scope>', 'a scope, e.g. devices_read; repeat it for one token that carries several', (scope: string, before: string[] = []) => [...before, scope]);
  completeValues(token, { '--scope': { words: SCOPES.map(shortScope) } });
  describeVerb(token, {
    output: 'text',
    uses: API_USES,
    examples: [
      { comment: 'an access token for reading devices', command: 'fleetctl auth token --scope devices_read' },
      { comment: 'call the API with curl', command: 'curl -H "Authorization: Bearer $(fleetctl auth token --scope devices_read)" "$FLEETCTL_BASE_URL/v1/devices"' },
      { comment: 'one token for two scopes', command: 'fleetctl auth token --scope devices_read --scope fleets_read' },
    ],
  });
  token.action(async (flags: { scope: string[] }) => {
    const scopes = knownScopes(flags.scope);
    // an extension, which never gets the secret, asks the fleetctl that runs it (src/extensions/token-broker.ts)
    const broker = deps.env[BROKER_VARIABLE];
    if (broker && !(await hasOwnSecret(deps))) {
      const { tokenFromBroker } = await import('../../extensions/token-broker.js');
      return deps.output().text(await tokenFromBroker(broker, scopes));
    }
    const api = await deps.api();
    // this command exists to print a token: the only place fleetctl writes one
    deps.output().text(await api.accessToken(scopes.join(' ')));
  });

  const logout = new Command('logout').description('Forget the cached tokens and the stored client secret of the profile');
  describeVerb(logout, { output: 'nothing', uses: ['profile'], examples: [{ comment: 'log out of the current profile', command: 'fleetctl auth logout' }] });
  logout.action(async () => {
    const store = await deps.config();
    const profile = resolveSettings(deps.globals(), deps.env, store.read()).profile.value;
    let dropped = 0;
    let inFile = false;
    const markedInKeychain = store.read().profiles[profile]?.client_secret_store === 'keychain';
    const inKeychain = await deps.keychain().delete(profile).catch((error: Error) => error);
    await recordedChange(deps.ledger(), { command: 'auth logout', target: `profile ${profile}`, outcome: 'logged_out' }, () => store.update((data) => {
      dropped = dropProfileTokens(data.tokens, profile);
      inFile = data.profiles[profile]?.client_secret !== undefined;
      if (data.profiles[profile]) {
        delete data.profiles[profile].client_secret;
        delete data.profiles[profile].client_secret_store;
      }
    }));
    const removed = [inKeychain === true && 'from the system keychain', inFile && `from ${store.path}`].filter(Boolean);
    const secret = removed.length > 0 ? `the client secret removed ${removed.join(' and ')}` : 'no client secret was stored';
    deps.io.info(`Logged out of profile "${profile}": ${dropped} cached token(s) dropped, ${secret}.`);
    // No keychain on this machine is the usual case in CI, and no warning; a keychain that holds the secret (or
    // exists but did not answer in time) and could not delete it is said.
    const timedOut = inKeychain instanceof KeychainUnavailable && inKeychain.timedOut;
    if (inKeychain instanceof Error && (markedInKeychain || timedOut)) {
      deps.io.warn(`the system keychain did not remove the secret (${inKeychain.message}): an entry "${profile}" of service "fleetctl" may remain`);
    }
  });

  return auth.addCommand(newAuthLoginCommand(deps)).addCommand(status).addCommand(token).addCommand(logout);
}

/** Whether the profile's client secret is somewhere this process can read it (flags, environment, command, keychain, file). */
async function hasOwnSecret(deps: Deps): Promise<boolean> {
  const settings = await deps.settings();
  return secretLocation(settings, (await deps.config()).read().profiles[settings.profile.value]) !== undefined;
}

/** Where the secret of each profile lives; for the current one, the environment and flags count too. */
function secretLocations(settings: Settings, profiles: Record<string, Profile>): { profile: string; secret: SecretLocation | null }[] {
  const current = settings.profile.value;
  const names = [...new Set([current, ...Object.keys(profiles)])];
  return names.map((name) => {
    const location = name === current ? secretLocation(settings, profiles[name]) : storedSecretLocation(profiles[name]);
    return { profile: name, secret: location ?? null };
  });
}
