// Callback URL policy for webhook destinations, shared by the sandbox (write-time validation and
// delivery-time address checks) and the CLI (early, friendly validation before a request is sent).
import ipaddr from 'ipaddr.js';
import { isLoopbackHost } from '../shared/loopback.js';
import { TOPIC_TYPES, type TopicType } from '../openapi/webhook-events.gen.js';

// the document's WebhookTopicType
export { TOPIC_TYPES, type TopicType };

// spec: "Up to 25 topics"; "Absolute HTTPS URL, at most 2048 characters"
export const MAX_TOPICS = 25;
export const MAX_CALLBACK_URL_LENGTH = 2048;

export interface CallbackUrlProblem {
  code: 'webhook.invalid_url' | 'webhook.ssrf_blocked';
  detail: string;
}

export interface CallbackUrlOptions {
  /**
   * Local development only (`fleetctl sandbox --allow-private-webhooks`): literal private addresses are
   * accepted, and so is plain http:// to a loopback host (a literal loopback address or `localhost`).
   */
  allowPrivate?: boolean;
}

/**
 * A schema issue (format, maxLength) of a delivery.url: the policy above says more about such a URL (invalid_url,
 * ssrf_blocked), so it speaks instead.
 */
export function isCallbackUrlShapeIssue(issue: { member: string; keyword?: string } | null): boolean {
  return issue !== null && /(^|\.)delivery\.url$/.test(issue.member) && (issue.keyword === 'format' || issue.keyword === 'maxLength');
}

export function isTopicType(value: unknown): value is TopicType {
  return typeof value === 'string' && (TOPIC_TYPES as readonly string[]).includes(value);
}

/**
 * Ranges in which an address is refused, by ipaddr.js range name.
 *
 * spec (Callback URL rules 2, Delivery rule 4): loopback, link-local, IPv4 private, IPv6 unique-local and
 * IPv4-mapped are named. We fail closed beyond that: only ordinary global unicast is approved. The extra
 * refusals and why:
 * - unspecified (0.0.0.0/8, ::): connecting to 0.0.0.0 reaches the local host on most systems.
 * - carrierGradeNat (100.64/10), broadcast, multicast: not a single public host; CGN space is internal
 *   to a provider's network just like RFC 1918 space.
 * - reserved (IPv4 192.0.0/24, documentation nets, 198.18/15 benchmarking, 240/4; IPv6 2001::/23,
 *   2001:db8::/32, 3fff::/20), benchmarking, discard, deprecatedSiteLocal (fec0::/10, the old
 *   "private" IPv6 space), orchids, segment routing: never a legitimate public webhook endpoint.
 * - rfc6145 (IPv4-translated ::ffff:0:0:0/96), teredo (2001::/32): tunnel forms that hide an IPv4
 *   address; refused like IPv4-mapped.
 * - IPv4-compatible ::a.b.c.d (deprecated, RFC 4291): ipaddr.js calls it unicast, we refuse it.
 * Checked by the embedded IPv4 address instead of refused outright:
 * - 6to4 (2002::/16, bits 16..47) and NAT64 well-known prefix 64:ff9b::/96 (last 32 bits): a gateway
 *   forwards them to the embedded IPv4 address, so they are refused when that address is refused.
 *   The NAT64 local-use prefix 64:ff9b:1::/48 is network-specific and refused outright.
 * - amt, as112 (IPv4 and IPv6): globally routed anycast services, approved like unicast.
 */
const APPROVED_RANGES = new Set(['unicast', 'amt', 'as112', 'as112v6']);

export interface AddressVerdict {
  blocked: boolean;
  /** ipaddr.js range name, or a description of why the address is refused ("not an IP address"). */
  range: string;
}

/** Classifies one IP address (as dns.lookup returns it, or a URL's literal host without brackets). */
export function classifyAddress(ip: string): AddressVerdict {
  if (!ipaddr.isValid(ip)) return { blocked: true, range: 'not an IP address' };
  const addr = ipaddr.parse(ip);
  if (addr.kind() === 'ipv4') return verdictFor(addr.range());
  const v6 = addr as ipaddr.IPv6;
  const range = v6.range();
  const embedded = embeddedIPv4(v6, range);
  if (embedded === 'refuse') return { blocked: true, range };
  if (embedded) {
    const inner = embedded.range();
    return { blocked: !APPROVED_RANGES.has(inner), range: `${range} embedding ${embedded.toString()} (${inner})` };
  }
  if (range === 'unicast' && v6.parts.slice(0, 6).every((word) => word === 0)) return { blocked: true, range: 'ipv4Compatible' };
  return verdictFor(range);
}

/** True when a delivery must not connect to this address (spec Delivery rule 4: fail closed). */
export function isBlockedAddress(ip: string): boolean {
  return classifyAddress(ip).blocked;
}

function verdictFor(range: string): AddressVerdict {
  return { blocked: !APPROVED_RANGES.has(range), range };
}

function embeddedIPv4(addr: ipaddr.IPv6, range: string): ipaddr.IPv4 | 'refuse' | null {
  const p = addr.parts;
  if (range === '6to4') return v4FromWords(p[1]!, p[2]!);
  if (range === 'rfc6052') {
    // only the well-known /96 embeds the address in its last 32 bits; 64:ff9b:1::/48 is local use
    if (p[2] === 0 && p[3] === 0 && p[4] === 0 && p[5] === 0) return v4FromWords(p[6]!, p[7]!);
    return 'refuse';
  }
  return null;
}

function v4FromWords(hi: number, lo: number): ipaddr.IPv4 {
  return new ipaddr.IPv4([hi >> 8, hi & 0xff, lo >> 8, lo & 0xff]);
}

/** The literal IP address of a WHATWG-parsed hostname, or null when the host is a domain name. */
export function literalHostAddress(hostname: string): string | null {
  if (hostname.startsWith('[') && hostname.endsWith(']')) return hostname.slice(1, -1);
  // WHATWG URL has already turned every IPv4 notation (0x7f.1, 2130706433, 127.1, 0177.0.0.1) into
  // dotted decimal, and refused hosts whose last label is numeric but not a valid IPv4 address.
  if (ipaddr.IPv4.isValidFourPartDecimal(hostname)) return hostname;
  return null;
}

/**
 * Validates a webhook callback URL as the spec's write-time rules say; null when it is acceptable.
 * spec rule 3: host names are not resolved here (that happens at delivery time), so only a literal
 * address host can be refused as webhook.ssrf_blocked.
 */
export function checkCallbackUrl(url: string, opts: CallbackUrlOptions = {}): CallbackUrlProblem | null {
  const invalid = (detail: string): CallbackUrlProblem => ({ code: 'webhook.invalid_url', detail });
  if (typeof url !== 'string' || url.length === 0) return invalid('The callback URL is empty.');
  if (url.length > MAX_CALLBACK_URL_LENGTH) {
    return invalid(`The callback URL is ${url.length} characters long; at most ${MAX_CALLBACK_URL_LENGTH} are allowed.`);
  }
  if (url.trim() !== url) return invalid('The callback URL has leading or trailing whitespace.');
  if (!URL.canParse(url)) return invalid('The callback URL is not an absolute URL.');
  const parsed = new URL(url);
  if (parsed.href.length > MAX_CALLBACK_URL_LENGTH) {
    return invalid(`The normalized callback URL is longer than ${MAX_CALLBACK_URL_LENGTH} characters.`);
  }
  const httpLoopback = opts.allowPrivate === true && parsed.protocol === 'http:' && isLoopbackHost(parsed.hostname);
  if (parsed.protocol !== 'https:' && !httpLoopback) {
    return invalid(`The callback URL must use https, not ${parsed.protocol.replace(/:$/, '')}.`);
  }
  // fetch refuses URLs with credentials, so such a destination could never be delivered to
  if (parsed.username !== '' || parsed.password !== '') {
    return invalid('The callback URL must not contain a user name or password.');
  }
  const literal = literalHostAddress(parsed.hostname);
  if (literal && !opts.allowPrivate) {
    const verdict = classifyAddress(literal);
    if (verdict.blocked) {
      return {
        code: 'webhook.ssrf_blocked',
        detail: `The callback host ${parsed.hostname} is a literal address in a blocked range (${verdict.range}).`,
      };
    }
  }
  return null;
}
