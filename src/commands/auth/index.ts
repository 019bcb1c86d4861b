// auth login|status|token|logout.
import { Command } from 'commander';
import type { Deps } from '../../factory.js';
import { UsageError } from '../../errors.js';
import { resolveSettings } from '../../config/settings.js';
import { PROFILE_KEYS } from '../../config/store.js';
import { fullScope } from '../../auth/scopes.js';
import { credentialFingerprint, dropProfileTokens, parseTokenCacheKey } from '../../auth/token-key.js';
import { SCOPES } from '../../openapi/operations.js';
import { describeVerb } from '../shared/help.js';
import { newAuthLoginCommand } from './login.js';

export function newAuthCommand(deps: Deps): Command {
  const auth = new Command('auth').description('Client-credentials login, status and tokens');

  const status = new Command('status').description('Show the profile, endpoints, client and cached tokens (never a secret or token)');
  describeVerb(status, { examples: [{ comment: 'where each setting comes from', command: 'fleetctl auth status' }] });
  status.action(async () => {
    const settings = await deps.settings();
    const store = await deps.config();
    const now = deps.clock.now().getTime();
    const clientId = settings.client_id.value;
    const secret = settings.client_secret.value;
    const current = clientId && secret ? credentialFingerprint(clientId, secret) : undefined;
    const issuer = deps.override?.tokenCacheAs ?? settings.auth_url.value;
    const tokens = Object.entries(store.read().tokens).flatMap(([key, token]) => {
      const owner = parseTokenCacheKey(key);
      if (!owner || owner.profile !== settings.profile.value) return [];
      const expired = token.expires_at !== undefined && Date.parse(token.expires_at) <= now;
      // A token fetched with other credentials (a rotated secret, another client) is kept but never used.
      const usable = owner.issuer === issuer && owner.clientId === clientId && owner.fingerprint === current;
      const state = expired ? 'expired' : usable ? 'valid' : 'other credentials';
      return [{ scope: owner.scope, client_id: owner.clientId, expires_at: token.expires_at ?? null, state }];
    });
    const setting = (key: (typeof PROFILE_KEYS)[number]) => ({
      value: key === 'client_secret' ? (settings[key].value ? '(set, hidden)' : null) : (settings[key].value ?? null),
      source: settings[key].source ?? null,
    });
    const report = {
      profile: settings.profile.value,
      profile_source: settings.profile.source,
      config_file: store.path,
      settings: Object.fromEntries(PROFILE_KEYS.map((key) => [key, setting(key)])),
      tokens,
    };
    const output = deps.output();
    if (output.isMachineReadable) return output.object(report);
    deps.io.info(`Profile "${report.profile}" (${report.profile_source}), stored in ${report.config_file}`);
    await output.list(
      PROFILE_KEYS.map((key) => ({ setting: key, ...report.settings[key] })),
      ['setting', 'value', 'source'],
    );
    if (tokens.length === 0) deps.io.info('No cached tokens.');
    else await output.list(tokens, ['scope', 'client_id', 'expires_at', 'state']);
  });

  const token = new Command('token').description('Print an access token for one scope, for use with curl').requiredOption('--scope <scope>', 'the scope, e.g. devices_read');
  describeVerb(token, {
    examples: [{ comment: 'call the API with curl', command: 'curl -H "Authorization: Bearer $(fleetctl auth token --scope devices_read)" "$FLEETCTL_BASE_URL/v1/devices"' }],
  });
  token.action(async (flags: { scope: string }) => {
    const scope = fullScope(flags.scope);
    if (!(SCOPES as readonly string[]).includes(scope)) throw new UsageError(`unknown scope "${flags.scope}"`, `scopes are: ${SCOPES.map((s) => s.replace('thirdparty.api.', '')).join(', ')}`);
    const api = await deps.api();
    deps.output().text(await api.accessToken(scope));
  });

  const logout = new Command('logout').description('Forget the cached tokens and the stored client secret of the profile');
  describeVerb(logout, { examples: [{ comment: 'log out of the current profile', command: 'fleetctl auth logout' }] });
  logout.action(async () => {
    const store = await deps.config();
    const profile = resolveSettings(deps.globals(), deps.env, store.read()).profile.value;
    let dropped = 0;
    let hadSecret = false;
    store.update((data) => {
      dropped = dropProfileTokens(data.tokens, profile);
      hadSecret = data.profiles[profile]?.client_secret !== undefined;
      if (data.profiles[profile]) delete data.profiles[profile].client_secret;
    });
    const secret = hadSecret ? 'the stored client secret removed' : 'no client secret was stored';
    deps.io.info(`Logged out of profile "${profile}": ${dropped} cached token(s) dropped, ${secret}.`);
  });

  return auth.addCommand(newAuthLoginCommand(deps)).addCommand(status).addCommand(token).addCommand(logout);
}
