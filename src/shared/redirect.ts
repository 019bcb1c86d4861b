// Whether a 3xx answer is followed, and how: one pure decision, acted on by the one transport (http/redirects.ts).
// RFC 9110 section 15.4: 307 and 308 keep the method and body, so a request that may be repeated can be sent again
// to the new address; 301 and 302 let a client turn a POST into a GET, and 303 asks for one, so they are followed
// only where the request was a GET already (a download). A token is never carried to another origin: a redirect
// there is followed only for downloads, whose signed URLs carry no credentials (the spec's media links), and then
// without any. Anything else is an error naming the Location, as is a loop or more than MAX_REDIRECTS hops.

/** Hops followed at most in one request (curl and browsers stop at a few dozen; a service needs one or two). */
export const MAX_REDIRECTS = 5;

const REDIRECTS: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);
/** Request headers that are credentials: never sent to another origin. */
export const CREDENTIAL_HEADERS: readonly string[] = ['authorization', 'cookie'];

export interface RedirectQuestion {
  /** The 3xx status answered. */
  status: number;
  /** The request that was answered: its method, URL and headers (an Authorization, an If-Match). */
  method: string;
  url: string;
  headers: Record<string, string>;
  /** Its Location header, as sent. */
  location: string | undefined;
  /** A download of a signed URL (a streamed GET that carries no credentials), not an API call. */
  download: boolean;
  /** Every URL requested so far in this chain, the first included. */
  visited: readonly string[];
}

export type RedirectDecision =
  | { follow: true; url: string; withoutCredentials: boolean }
  | { follow: false; reason: string; hint?: string };

const BASE_URL_HINT = 'check the base URL or auth URL (https://, no trailing path): fleetctl never carries a token to another address';

export function decideRedirect(q: RedirectQuestion): RedirectDecision {
  if (!REDIRECTS.has(q.status)) return { follow: false, reason: `HTTP ${q.status} is not a redirect fleetctl follows` };
  if (q.location === undefined || q.location.trim() === '') return { follow: false, reason: 'the redirect names no Location' };
  const from = new URL(q.url);
  let to: URL;
  try {
    to = new URL(q.location, from);
  } catch {
    return { follow: false, reason: 'its Location is not a URL' };
  }
  if (to.protocol !== 'https:' && to.protocol !== 'http:') return { follow: false, reason: `its Location is not an http(s) URL` };
  if (from.protocol === 'https:' && to.protocol === 'http:') return { follow: false, reason: 'it leads from https to plain http' };
  if (q.visited.includes(to.href)) return { follow: false, reason: 'the redirects go round in a loop', hint: 'the service, or a proxy in front of it, redirects in a loop' };
  if (q.visited.length > MAX_REDIRECTS) return { follow: false, reason: `more than ${MAX_REDIRECTS} redirects in a row`, hint: 'the service, or a proxy in front of it, redirects without end' };
  if (q.download) return { follow: true, url: to.href, withoutCredentials: true };
  if (to.origin !== from.origin) return { follow: false, reason: 'it leads to another origin, where an API call would carry its token', hint: BASE_URL_HINT };
  if (q.status !== 307 && q.status !== 308) return { follow: false, reason: `an HTTP ${q.status} may change the method: API calls follow only 307 and 308`, hint: BASE_URL_HINT };
  if (!mayRepeat(q.method, q.headers)) {
    const method = q.method.toUpperCase();
    const what = method === 'PUT' || method === 'DELETE' ? `a ${method} without If-Match` : `a ${method}`;
    return { follow: false, reason: `${what} is not sent twice`, hint: BASE_URL_HINT };
  }
  return { follow: true, url: to.href, withoutCredentials: false };
}

/** GET and HEAD, and a PUT or DELETE that carries If-Match (it cannot apply twice): safe to send again elsewhere. */
function mayRepeat(method: string, headers: Record<string, string>): boolean {
  const upper = method.toUpperCase();
  if (upper === 'GET' || upper === 'HEAD') return true;
  return (upper === 'PUT' || upper === 'DELETE') && Object.keys(headers).some((name) => name.toLowerCase() === 'if-match');
}
