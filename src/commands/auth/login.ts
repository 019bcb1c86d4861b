import { Command } from 'commander';
import type { Deps } from '../../factory.js';
import { UsageError } from '../../errors.js';
import { resolveSettings } from '../../config/settings.js';
import { readAll } from '../../io/read-input.js';
import { quoteInput } from '../../output/terminal-text.js';
import { assertSafeForCredentials } from '../../auth/secure-url.js';
import { requestToken, TokenEndpointError, type TokenAnswer } from '../../auth/tokens.js';
import { parseScopeList } from '../../auth/scopes.js';
import { SCOPES } from '../../openapi/operations.js';
import { retryPolicy } from '../../factory.js';
import { describeVerb } from '../shared/help.js';
import { optionalUuid } from '../shared/validate.js';

export interface LoginFlags {
  clientId?: string;
  clientSecretStdin?: boolean;
  scopes?: string;
  organizationId?: string;
}

type LoginDeps = Pick<Deps, 'config' | 'io' | 'env' | 'globals' | 'prompter' | 'transport' | 'output' | 'clock' | 'signal'>;

export function newAuthLoginCommand(deps: LoginDeps): Command {
  const command = new Command('login')
    .description('Store client credentials in a profile, after checking them against the token endpoint')
    .option('--client-id <id>', 'OAuth client id (env FLEETCTL_CLIENT_ID)')
    .option('--client-secret-stdin', 'read the client secret from stdin (or set FLEETCTL_CLIENT_SECRET)')
    .option('--scopes <list>', 'scopes the client must hold, space or comma separated: checked at login and remembered (default: ask for every scope; a client holding fewer still logs in)')
    .option('--organization-id <uuid>', 'default organization for webhook-config commands');
  describeVerb(command, {
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
  const missing: string[] = [];
  const ask = async (value: string | undefined, name: string, question: string, fallback?: string) => {
    if (value) return value;
    if (canPrompt) return deps.prompter.input(question, { default: fallback, validate: (v) => (v.trim() ? true : `${name} is required`) });
    if (fallback) return fallback;
    missing.push(name);
    return '';
  };
  const baseUrl = await ask(settings.base_url.value, '--base-url', 'API base URL');
  const explicitAuthUrl = settings.auth_url.source === 'default' ? undefined : settings.auth_url.value;
  // The issuer defaults to the base URL: when that is missing too, naming --base-url is enough.
  const authUrl = explicitAuthUrl || baseUrl || canPrompt ? await ask(explicitAuthUrl, '--auth-url', 'Token issuer (auth) URL', baseUrl || undefined) : '';
  const clientId = await ask(flags.clientId ?? settings.client_id.value, '--client-id', 'Client id');
  let clientSecret = flags.clientSecretStdin ? (await readAll(deps.io.in, '--client-secret-stdin', { signal: deps.signal })).trim() : settings.client_secret.value;
  const secretFromUser = Boolean(flags.clientSecretStdin) || settings.client_secret.source === 'profile';
  let prompted = false;
  if (!clientSecret) {
    if (canPrompt) {
      clientSecret = await deps.prompter.password('Client secret');
      prompted = true;
    } else missing.push('the client secret (--client-secret-stdin or FLEETCTL_CLIENT_SECRET)');
  }
  if (missing.length > 0) {
    throw new UsageError(`cannot log in without ${missing.join(', ')}`, 'pass them as flags or environment variables, or run `fleetctl auth login` in a terminal');
  }
  const insecure = Boolean(deps.globals().insecure);
  assertSafeForCredentials(baseUrl, 'a bearer token', 'base_url', insecure);
  assertSafeForCredentials(authUrl, 'the client secret', 'auth_url', insecure);
  const scopes = parseScopeList(flags.scopes ?? settings.scopes.value);
  const organizationId = optionalUuid(flags.organizationId, '--organization-id');

  const verified = await verifyCredentials(deps, { authUrl, clientId, clientSecret: clientSecret! }, scopes);
  const profile = settings.profile.value;
  store.update((data) => {
    const next = { ...data.profiles[profile], base_url: baseUrl, auth_url: authUrl, client_id: clientId };
    // A secret that came from the environment stays there; one typed or piped in is stored (file mode 0600).
    if (prompted || secretFromUser) next.client_secret = clientSecret;
    if (scopes) next.scopes = scopes.join(' ');
    if (organizationId) next.organization_id = organizationId;
    data.profiles[profile] = next;
    data.current_profile ??= profile;
  });
  deps.io.info(`Logged in as client ${quoteInput(clientId)} at ${authUrl} (profile ${quoteInput(profile)}).${verified.note}`);
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
): Promise<{ note: string }> {
  const retry = { policy: retryPolicy(deps.globals()), clock: deps.clock, signal: deps.signal };
  let token: TokenAnswer;
  try {
    token = await requestToken(await deps.transport(), credentials, scopes ?? [...SCOPES], retry);
  } catch (error) {
    if (scopes || !(error instanceof TokenEndpointError) || error.error !== 'invalid_scope') throw error;
    const why = error.description ? ` (${error.description})` : '';
    return { note: ` The client does not hold every scope of the API${why}; each command asks for the one scope it needs.` };
  }
  return { note: token.scope ? ` Granted scopes: ${token.scope}.` : '' };
}
