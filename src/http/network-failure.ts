// What went wrong when no HTTP answer came: one NetworkError (exit 9) per failure, in words, with what to do.
import { NetworkError, UsageError } from '../errors.js';

/** A request that got no answer: `reason` says why without the URL, for messages that name the URL themselves. */
export class ConnectionFailure extends NetworkError {
  constructor(
    readonly url: string,
    readonly reason: string,
    hint: string,
    /** The system or undici error code (ECONNREFUSED, UND_ERR_HEADERS_TIMEOUT, ...). */
    readonly code: string | undefined,
    /** Whether the request may have been acted on (the connection dropped after it went out). */
    readonly lost = false,
    /** Whether trying again may help and is safe whatever the request: not when TLS, DNS or a proxy said no. */
    readonly retryable = true,
    /**
     * No answer came in time: the request may have been acted on, so it is tried again only when a repeat is safe
     * (shared/retry.ts isSafeToRepeatAfterTimeout).
     */
    readonly timedOut = false,
  ) {
    super(lost ? `the connection to ${url} was lost before an answer came (${reason})` : `could not reach ${url}: ${reason}`, hint);
  }
}

const LOST_CONNECTION_CODES = new Set(['UND_ERR_SOCKET', 'ECONNRESET', 'EPIPE', 'UND_ERR_CLOSED']);
const TIMEOUT_CODES = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'UND_ERR_CONNECT_TIMEOUT']);

const PROXY_HINT = 'proxy settings (HTTPS_PROXY, NO_PROXY)';
const TLS_FAILURE: { what: string; hint: string; transient?: boolean } = {
  what: 'TLS failure, the server certificate is not trusted',
  hint: 'if your organization uses its own certificate authority, pass its PEM bundle with --ca-file (or FLEETCTL_CA_FILE, or `fleetctl config set ca_file FILE`)',
};
// OpenSSL's verification failures (CERT_HAS_EXPIRED, SELF_SIGNED_CERT_IN_CHAIN, ...) and Node's own TLS codes.
const TLS_CODE = /^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_|HOSTNAME_MISMATCH|EPROTO$)/;
// transient: a service restarting refuses connections for a moment, a name server may answer next time.
const KNOWN_FAILURES: Record<string, { what: string; hint: string; transient?: boolean }> = {
  ECONNREFUSED: { what: 'connection refused, nothing is listening there', hint: 'check the URL and port, and that the service is running', transient: true },
  ENOTFOUND: { what: 'DNS failure, the host name is not known', hint: `check the host name in the URL, your DNS and ${PROXY_HINT}` },
  EAI_AGAIN: { what: 'DNS failure, the name server did not answer', hint: `check your network connection, DNS and ${PROXY_HINT}, then try again`, transient: true },
  EHOSTUNREACH: { what: 'no route to the host', hint: `check your network connection, VPN and ${PROXY_HINT}`, transient: true },
  ENETUNREACH: { what: 'the network is unreachable', hint: `check your network connection, VPN and ${PROXY_HINT}`, transient: true },
  ERR_SSL_WRONG_VERSION_NUMBER: { what: 'TLS failure, the server does not speak TLS there', hint: 'check the URL scheme and port (https:// to a plain-http port?)' },
};

/** `proxies`: how requests go through proxies (credentials hidden), when they do: said in the hint. */
export function toNetworkError(error: unknown, url: string, timeoutMs: number, signal?: AbortSignal, proxies?: string): Error {
  if (signal?.aborted) return signal.reason instanceof Error ? signal.reason : (error as Error);
  // the client refused to send what it was given: nothing went out, and a retry would refuse it again
  if (networkErrorCode(error) === 'UND_ERR_INVALID_ARG') return new UsageError(`the request to ${safeOrigin(url)} cannot be sent: ${(error as Error).message}`);
  const failure = describeFailure(error, safeOrigin(url), timeoutMs);
  if (!proxies) return failure;
  return new ConnectionFailure(failure.url, failure.reason, `${failure.hint}; requests go through proxies (${proxies})`, failure.code, failure.lost, failure.retryable, failure.timedOut);
}

function describeFailure(error: unknown, where: string, timeoutMs: number): ConnectionFailure {
  const code = networkErrorCode(error);
  const proxyStatus = /^Proxy response \((\d+)\)/.exec((error as Error)?.message ?? '')?.[1];
  if (proxyStatus) {
    const hint = proxyStatus === '407' ? 'the proxy wants credentials: put them in the proxy URL (https_proxy=http://USER:PASSWORD@proxy:port)' : 'check HTTPS_PROXY, HTTP_PROXY and NO_PROXY';
    return new ConnectionFailure(where, `the proxy refused to open a tunnel (HTTP ${proxyStatus})`, hint, code, false, false);
  }
  if (code && TIMEOUT_CODES.has(code)) {
    return new ConnectionFailure(where, `timed out after ${timeoutMs / 1000} s`, 'raise --timeout, or check the service status', code, false, false, true);
  }
  const raw = code ?? (error as Error)?.message ?? 'unknown error';
  // A connection lost after the request went out may or may not have been acted on: say so.
  if (LOST_CONNECTION_CODES.has(code ?? '')) {
    return new ConnectionFailure(where, raw, 'the request may or may not have been processed; retry it (idempotent requests are safe to repeat)', code, true);
  }
  const known = code ? (KNOWN_FAILURES[code] ?? (TLS_CODE.test(code) ? TLS_FAILURE : undefined)) : undefined;
  if (known) return new ConnectionFailure(where, `${known.what} (${code})`, known.hint, code, false, known.transient ?? false);
  return new ConnectionFailure(where, raw, 'check the base URL and your network connection', code);
}

export function networkErrorCode(error: unknown): string | undefined {
  let current = error as { code?: unknown; cause?: unknown } | undefined;
  for (let depth = 0; current && depth < 4; depth++) {
    if (typeof current.code === 'string') return current.code;
    current = current.cause as typeof current;
  }
  return undefined;
}

/**
 * Connection-level failures are safe to retry for idempotent requests; TLS, DNS and proxy refusals are not retried.
 * A timeout is retried when `repeatableAfterTimeout` says the request may be sent again though it may have been
 * acted on (a GET, or a command carrying an Idempotency-Key, whose repeat replays).
 */
export function isRetryableNetworkError(error: unknown, repeatableAfterTimeout = false): boolean {
  if (!(error instanceof NetworkError)) return false;
  if (!(error instanceof ConnectionFailure)) return true;
  return error.retryable || (error.timedOut && repeatableAfterTimeout);
}

/** The URL without its query (signed URLs carry credentials there) nor user info. */
function safeOrigin(url: string): string {
  if (!URL.canParse(url)) return url;
  const parsed = new URL(url);
  return `${parsed.origin}${parsed.pathname}`;
}
