// The transport's side of redirects: shared/redirect.ts decides each hop; this follows it (the same request to
// the new URL, without credentials where the decision says so) or turns the 3xx into an ApiError naming the
// Location (exit 9, as any answer fleetctl cannot use).
import { ApiError } from '../errors.js';
import { CREDENTIAL_HEADERS, decideRedirect } from '../shared/redirect.js';
import { quoteInput } from '../shared/terminal-text.js';

export interface Hop {
  method: string;
  url: string;
  headers: Record<string, string>;
}

/**
 * Sends `first`, then each redirect the decision follows, until an answer that is not a 3xx. `send` makes one
 * exchange; `discard` lets go of a 3xx answer's body before the next one.
 */
export async function followRedirects<R extends { status: number; headers: Record<string, string | string[] | undefined> }>(
  first: Hop,
  download: boolean,
  send: (hop: Hop) => Promise<R>,
  discard: (answer: R) => Promise<void> = async () => undefined,
  note: (message: string) => void = () => undefined,
): Promise<R> {
  // as the decision compares them (normalised); a URL that does not parse fails in `send`, as it always did
  const visited = [URL.canParse(first.url) ? new URL(first.url).href : first.url];
  for (let hop = first; ; ) {
    const answer = await send(hop);
    if (answer.status < 300 || answer.status >= 400) return answer;
    await discard(answer);
    const location = single(answer.headers.location);
    const decision = decideRedirect({ status: answer.status, method: hop.method, url: hop.url, headers: hop.headers, location, download, visited });
    if (!decision.follow) throw redirectRefused(answer.status, hop.url, location, decision.reason, decision.hint);
    // the origin and path only: a signed URL's query is its credential
    const to = new URL(decision.url);
    note(`following HTTP ${answer.status} to ${to.origin}${to.pathname}${decision.withoutCredentials ? ' (without credentials)' : ''}`);
    visited.push(decision.url);
    hop = { ...hop, url: decision.url, headers: decision.withoutCredentials ? withoutCredentials(hop.headers) : hop.headers };
  }
}

/** A 3xx fleetctl does not follow, as the error a person reads: the status, where from, the Location, and why. */
export function redirectRefused(status: number, url: string, location: string | undefined, reason: string, hint?: string): ApiError {
  const origin = URL.canParse(url) ? new URL(url).origin : url;
  return new ApiError({
    status,
    message: `HTTP ${status} from ${origin}: a redirect${location ? ` to ${quoteInput(location, 200)}` : ''} not followed: ${reason}`,
    hint,
  });
}

function withoutCredentials(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !CREDENTIAL_HEADERS.includes(name.toLowerCase())));
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
