// auth login|status|token|logout.
import { Command } from 'commander';
import type { Deps } from '../../factory.js';
import { UsageError } from '../../errors.js';
import { resolveSettings } from '../../config/settings.js';
import { PROFILE_KEYS } from '../../config/store.js';
import { fullScope } from '../../auth/scopes.js';
import { SCOPES } from '../../openapi/operations.js';
import { describeVerb } from '../shared/help.js';
import { newAuthLoginCommand } from './login.js';
import { quoteInput } from '../../output/terminal-text.js';

export function newAuthCommand(deps: Deps): Command {
  const auth = new Command('auth').description('Client-credentials login, status and tokens');

  const status = new Command('status').description('Show the profile, endpoints, client and cached tokens (never a secret or token)');
  describeVerb(status, { examples: [{ comment: 'where each setting comes from', command: 'fleetctl auth status' }] });
  status.action(async () => {
    const settings = await deps.settings();
    const store = await deps.config();
    const prefix = `${settings.profile.value}|`;
    const now = deps.clock.now().getTime();
    const tokens = Object.entries(store.read().tokens)
      .filter(([key]) => key.startsWith(prefix))
      .map(([key, token]) => ({
        scope: token.scope,
        client_id: key.split('|')[2],
        expires_at: token.expires_at ?? null,
        state: token.expires_at && Date.parse(token.expires_at) <= now ? 'expired' : 'valid',
      }));
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
    if (!(SCOPES as readonly string[]).includes(scope)) throw new UsageError(`unknown scope ${quoteInput(flags.scope)}`, `scopes are: ${SCOPES.map((s) => s.replace('thirdparty.api.', '')).join(', ')}`);
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
      for (const key of Object.keys(data.tokens)) {
        if (key.startsWith(`${profile}|`)) {
          delete data.tokens[key];
          dropped++;
        }
      }
      hadSecret = data.profiles[profile]?.client_secret !== undefined;
      if (data.profiles[profile]) delete data.profiles[profile].client_secret;
    });
    const secret = hadSecret ? 'the stored client secret removed' : 'no client secret was stored';
    deps.io.info(`Logged out of profile "${profile}": ${dropped} cached token(s) dropped, ${secret}.`);
  });

  return auth.addCommand(newAuthLoginCommand(deps)).addCommand(status).addCommand(token).addCommand(logout);
}
