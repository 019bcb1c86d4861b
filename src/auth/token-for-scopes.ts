// One access token for the scopes asked, as `auth token` prints it and as the token broker of an extension hands it
// out: each scope checked against the API's own list, named in full, once, in one order.
import { UsageError } from '../errors.js';
import { SCOPES } from '../openapi/operations.js';
import { fullScope, shortScope } from './scopes.js';
import { quoteInput } from '../shared/terminal-text.js';
import { didYouMean } from '../shared/did-you-mean.js';

/** Whatever hands out tokens for a space-separated scope list (the API client). */
export interface TokenIssuer {
  accessToken(scope: string): Promise<string>;
}

/** A token that carries every scope asked; an unknown scope is refused (exit 2) before anything is asked for. */
export async function tokenForScopes(issuer: TokenIssuer, asked: readonly string[]): Promise<string> {
  return issuer.accessToken(knownScopes(asked).join(' '));
}

/** The scopes asked, in full, each once and in order (one token, one cache entry, whatever order they were typed in); an unknown one is refused. */
export function knownScopes(asked: readonly string[]): string[] {
  const known = SCOPES.map(shortScope);
  for (const scope of asked) {
    if ((SCOPES as readonly string[]).includes(fullScope(scope))) continue;
    const guess = didYouMean(shortScope(scope), known);
    throw new UsageError(`unknown scope ${quoteInput(scope)}${guess ? `; ${guess}` : ''}`, `scopes are: ${known.join(', ')}`);
  }
  return [...new Set(asked.map(fullScope))].sort();
}
