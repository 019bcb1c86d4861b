import { Command } from 'commander';
import type { Deps } from '../../factory.js';
import { recordedChange } from '../../ledger/recorder.js';
import { retryPolicy } from '../../config/global-flags.js';
import { AuthError, UsageError } from '../../errors.js';
import { forgetDraft, readDraft, saveDraft } from './login-draft.js';
import { environmentVariableFor, resolveSettings } from '../../config/settings.js';
import { readAll } from '../../io/read-input.js';
import { cutText, quoteInput } from '../../shared/terminal-text.js';
import { assertSafeForCredentials } from '../../auth/secure-url.js';
import { cachedTokenFrom, requestToken, tokenEndpoint, TokenEndpointError, type TokenAnswer } from '../../auth/tokens.js';
import { tokenCacheKey, tokenOwner } from '../../auth/token-key.js';
import { KEYCHAIN_SERVICE, readClientSecret, secretLocation, storeInKeychain } from '../../auth/secret-store.js';
import { parseScopeList, scopesNamedIn, shortScope } from '../../auth/scopes.js';
import { SCOPES } from '../../openapi/operations.js';
import { describeVerb } from '../shared/help.js';
import { completeValues } from '../../completion/values.js';
import { optionalUuid } from '../shared/validate.js';

export interface LoginFlags {
  clientId?: string;
  clientSecretStdin?: boolean;
  scopes?: string;
  organizationId?: string;
}

type LoginDeps = Pick<Deps, 'config' | 'io' | 'env' | 'globals' | 'prompter' | 'transport' | 'output' | 'clock' | 'signal' | 'keychain' | 'configDir' | 'debug' | 'ledger'>;

export function newAuthLoginCommand(deps: LoginDeps): Command {
  const command = new Command('login')
    .description('Store client credentials in a profile, after checking them against the token endpoint')
    .option('--client-id <id>', 'OAuth client id (env FLEETCTL_CLIENT_ID)')
    .option('--client-secret-stdin', 'read the client secret from stdin (or set FLEETCTL_CLIENT_SECRET)')
    .option('--scopes <list>', 'scopes the client must hold, space or comma separated: checked at login and remembered (default: ask for every scope; a client holding fewer still logs in)')
    .option('--organization-id <uuid>', 'default organization for webhook-config commands');
  completeValues(command, { '--scopes': { words: SCOPES.map(shortScope), commaList: true }, '--organization-id': 'organization-id' });
  describeVerb(command, {
    output: 'nothing',
    // the token endpoint only: no embedded sandbox
    uses: ['profile', 'endpoints', 'timeout', 'retries', 'debug', 'insecure'],
    prompts: true,
    makesProfile: true,
    examples: [
      { comment: 'interactive: prompts for what is missing (here, everything comes from the FLEETCTL_* variables)', command: 'fleetctl auth login' },
      {
        comment: 'non-interactive, the secret piped on stdin (never on the command line)',
        command: 'printf %s "$FLEETCTL_CLIENT_SECRET" | fleetctl auth login --base-url "$FLEETCTL_BASE_URL" --client-id sandbox-admin --client-secret-stdin --no-input',
      },
    ],
  });
  command.action(async (flags: LoginFlags) => loginRun(deps, flags));
  return command;
}

export async function loginRun(deps: LoginDeps, flags: LoginFlags): Promise<void> {
  const store = await deps.config();
  const settings = resolveSettings(deps.globals(), deps.env, store.read());
  const canPrompt = deps.io.canPrompt();
  const profile = settings.profile.value;
  // what a failed login was given, offered again as the defaults, so only the wrong part is typed anew
  const draft = canPrompt ? await readDraft(deps.configDir(), profile) : undefined;
  const missing: string[] = [];
  const ask = async (value: string | undefined, name: string, question: string, fallback?: string, drafted?: string) => {
    if (value && (drafted === undefined || drafted === value)) return value;
    if (canPrompt) return deps.prompter.input(question, { default: drafted ?? fallback, validate: (v) => (v.trim() ? true : `${name} is required`) });
    if (fallback) return fallback;
    missing.push(name);
    return '';
  };
  // a value given by flag or environment is what the operator says now: the draft never overrides it
  const fromStore = (source: string | undefined) => source === undefined || source === 'profile' || source === 'default';
  const drafted = (key: 'base_url' | 'auth_url' | 'client_id') => (fromStore(settings[key].source) ? draft?.[key] : undefined);
  const baseUrl = await ask(settings.base_url.value, '--base-url', 'API base URL', undefined, drafted('base_url'));
  const explicitAuthUrl = settings.auth_url.source === 'default' ? undefined : settings.auth_url.value;
  // The issuer defaults to the base URL: when that is missing too, naming --base-url is enough.
  const authUrl =
    explicitAuthUrl || baseUrl || canPrompt ? await ask(explicitAuthUrl, '--auth-url', 'Token issuer (auth) URL', baseUrl || undefined, drafted('auth_url')) : '';
  const clientId = await ask(flags.clientId ?? settings.client_id.value, '--client-id', 'Client id', undefined, flags.clientId ? undefined : drafted('client_id'));
  // where the secret is now: a secret given here, or kept in the file, is stored (in the keychain if one answers)
  const location = flags.clientSecretStdin ? undefined : secretLocation(settings, store.read().profiles[profile]);
  let clientSecret = flags.clientSecretStdin
    ? (await readAll(deps.io.in, '--client-secret-stdin', { signal: deps.signal })).trim()
    : await readClientSecret(settings, store.read().profiles[profile], deps.keychain, deps.signal);
  if (!clientSecret) {
    if (canPrompt) clientSecret = await deps.prompter.password('Client secret');
    else missing.push('the client secret (--client-secret-stdin or FLEETCTL_CLIENT_SECRET)');
  }
  const toStore = location === undefined || location === 'file';
  if (missing.length > 0) {
    throw new UsageError(`cannot log in without ${missing.join(', ')}`, 'pass them as flags or environment variables, or run `fleetctl auth login` in a terminal');
  }
  const insecure = Boolean(deps.globals().insecure);
  assertSafeForCredentials(baseUrl, 'a bearer token', 'base_url', insecure);
  assertSafeForCredentials(authUrl, 'the client secret', 'auth_url', insecure);
  const scopes = parseScopeList(flags.scopes ?? settings.scopes.value);
  const organizationId = optionalUuid(flags.organizationId, '--organization-id');

  const asked = deps.clock.now();
  const verified = await verifyCredentials(deps, { authUrl, clientId, clientSecret: clientSecret! }, scopes).catch(async (error: unknown) => {
    // never the secret: only what is safe in a file and tedious to type again
    await saveDraft(deps.configDir(), profile, { base_url: baseUrl, auth_url: authUrl, client_id: clientId }).catch(() => undefined);
    throw error;
  });
  await forgetDraft(deps.configDir(), profile);
  // A secret from the environment or a command stays there; one typed or piped in is stored.
  const stored = toStore ? await storeInKeychain(deps.keychain(), profile, clientSecret!) : undefined;
  // the token login obtained is cached for each scope it carries: `auth status` shows it, the next command uses it
  const owner = tokenOwner({ profile, issuer: authUrl, clientId, clientSecret: clientSecret! });
  const cached = verified.token ? grantedScopes(verified.token, scopes).map((scope) => [tokenCacheKey({ ...owner, scope }), cachedTokenFrom(verified.token!, scope, asked, deps.clock.now())] as const) : [];
  const saving = { command: 'auth login', target: `profile ${profile}`, outcome: 'logged_in' };
  await recordedChange(deps.ledger(), saving, () => store.update((data) => {
    for (const [key, entry] of cached) data.tokens[key] = entry;
    const next = { ...data.profiles[profile], base_url: baseUrl, auth_url: authUrl, client_id: clientId };
    if (stored) {
      const inKeychain = stored.where === 'keychain';
      if (inKeychain) delete next.client_secret;
      else next.client_secret = clientSecret;
      if (inKeychain) next.client_secret_store = 'keychain';
      else delete next.client_secret_store;
    }
    if (scopes) next.scopes = scopes.join(' ');
    if (organizationId) next.organization_id = organizationId;
    data.profiles[profile] = next;
    data.current_profile ??= profile;
  }));
  deps.io.info(`Logged in as client ${quoteInput(clientId)} at ${authUrl} (profile ${quoteInput(profile)}).${verified.note}`);
  if (stored?.where === 'keychain') deps.io.info(`The client secret is stored in the system keychain (service "${KEYCHAIN_SERVICE}", account "${profile}").`);
  else if (stored) warnPlainText(deps, store.path, deps.debug() ? stored.reason : undefined);
  else if (location === 'environment') warnSecretNotStored(deps, settings.profile.source === 'flag' ? profile : undefined);
  else deps.io.info(`The client secret comes from ${location === 'command' ? 'client_secret_command' : 'the system keychain'}, where it stays.`);
}

/** The keychain's own words (a D-Bus error, say) mean nothing to most: said only with --debug. */
function warnPlainText(deps: LoginDeps, file: string, reason: string | undefined): void {
  const why = reason === undefined ? '' : ` (${reason})`;
  deps.io.warn(`no system keychain is available here, so the client secret was saved in ${file}, readable only by you (mode 0600)${why}`);
  deps.io.hint('to keep it out of that file, set client_secret_command to a command that prints it (`fleetctl config set client_secret_command "op read op://vault/fleet/secret"`), or FLEETCTL_CLIENT_SECRET');
}

/** A secret from the environment is not stored: without saying so, the next shell fails with "no client secret". */
function warnSecretNotStored(deps: LoginDeps, profileFlag: string | undefined): void {
  const variable = environmentVariableFor('client_secret');
  const profile = profileFlag ? ` --profile ${profileFlag}` : '';
  deps.io.warn(`the client secret comes from ${variable} and was not stored: a shell without ${variable} will have no secret`);
  deps.io.hint(`to store it: printf %s "$${variable}" | fleetctl${profile} auth login --client-secret-stdin`);
}

/**
 * spec: the token request carries a scope field. Without --scopes, login asks for every scope of the API:
 * a client holding only some of them is still a valid login (the issuer authenticates the client before it
 * judges the scope, so invalid_scope proves the id and secret), and each command later asks for just the
 * one scope it needs. With --scopes, exactly those are checked and a refusal fails the login.
 */
async function verifyCredentials(
  deps: LoginDeps,
  credentials: { authUrl: string; clientId: string; clientSecret: string },
  scopes: string[] | undefined,
): Promise<{ note: string; token?: TokenAnswer }> {
  const retry = { policy: retryPolicy(deps.globals()), clock: deps.clock, signal: deps.signal };
  let token: TokenAnswer;
  try {
    token = await requestToken(await deps.transport(), credentials, scopes ?? [...SCOPES], retry);
  } catch (error) {
    if (!(error instanceof TokenEndpointError)) throw error;
    // the issuer's own words, for whoever debugs an issuer: plain words below for everyone else
    if (error.error === 'invalid_scope' && error.description && deps.debug()) deps.io.info(`The token issuer said: ${quoteInput(error.description, 400)}`);
    if (scopes || error.error !== 'invalid_scope') throw refusal(error, credentials, scopes);
    // in plain words: which scopes the issuer refused, when its text names them (the spec leaves the text unshown)
    const refused = scopesNamedIn(error.description, SCOPES);
    const which = refused.length > 0 ? `: the issuer refused ${listed(refused)}` : '';
    return { note: ` The client does not hold every scope of the API${which}. Each command asks for the one scope it needs.` };
  }
  const granted = token.scope ? token.scope.split(' ').filter(Boolean) : [];
  return { note: granted.length > 0 ? ` Granted ${granted.length} scope${granted.length === 1 ? '' : 's'} (fleetctl auth status lists them).` : '', token };
}

/**
 * One line naming the client and the token URL: the scopes asked for (every scope of the API) are left out. A
 * scope refusal of --scopes says, in fleetctl's words, which of them the client does not hold.
 */
function refusal(error: TokenEndpointError, credentials: { authUrl: string; clientId: string }, scopes: string[] | undefined): AuthError {
  const refused = `${tokenEndpoint(credentials.authUrl)} refused client ${quoteInput(credentials.clientId)}`;
  if (error.error === 'invalid_scope' && scopes) {
    const named = scopesNamedIn(error.description, scopes);
    const lacking = named.length > 0 ? named : scopes.map(shortScope);
    return new AuthError(
      `${refused}: it does not hold ${named.length > 0 || lacking.length === 1 ? '' : 'every one of '}${listed(lacking)}, asked for by --scopes (invalid_scope)`,
      `log in without --scopes to use the scopes the client holds, or ask an administrator of your organization to grant ${lacking.length === 1 ? 'it' : 'them'}`,
    );
  }
  const said = error.description ? ` (${cutText(error.description, 200)})` : '';
  const what = error.error === 'invalid_client' ? 'wrong client id or secret (invalid_client)' : `${cutText(error.error, 100)}${said}`;
  return new AuthError(`${refused}: ${what}`, error.hint);
}

/** `devices_read`, `devices_read and fleets_read`, `a, b and c`: scopes as a sentence names them. */
function listed(scopes: readonly string[]): string {
  const scope = scopes.length === 1 ? 'the scope' : 'the scopes';
  return `${scope} ${scopes.length > 1 ? `${scopes.slice(0, -1).join(', ')} and ${scopes.at(-1)}` : scopes[0]}`;
}

/** The scopes a login token is good for: those it says it carries, or else those asked for. */
function grantedScopes(token: TokenAnswer, asked: string[] | undefined): string[] {
  const granted = token.scope ? token.scope.split(' ').filter(Boolean) : (asked ?? [...SCOPES]);
  return granted.filter((scope) => (SCOPES as readonly string[]).includes(scope));
}
