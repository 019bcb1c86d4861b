// Whether a host is this machine: the one rule for plain http with credentials (auth/secure-url.ts), the served
// document's cache (api/served-document.ts), http:// webhook destinations in local development
// (webhooks/callback-url.ts) and the sandbox's control token (sandbox/control/control-token.ts).
//
// The rule, and why:
// - The names `localhost` and `*.localhost` (RFC 6761 section 6.3): reserved for loopback, which resolvers must
//   answer with a loopback address and must not ask a DNS server about. The W3C Secure Contexts rule ("is origin
//   potentially trustworthy") and curl treat them alike. `localhost.evil.test` is an ordinary name: not loopback.
// - A trailing dot is the same name written in full (`localhost.`, `api.localhost.`), once: `localhost..` is not.
// - IPv4 127.0.0.0/8 and IPv6 ::1 (ipaddr.js range `loopback`), in any notation the system resolver reads
//   (127.1, 0x7f.0.0.1), bare or in URL brackets, with or without an IPv6 zone.
// - IPv4-mapped ::ffff:127.x.y.z: a dual-stack socket sends it to 127.x.y.z, so it is loopback too.
// - Not loopback: the unspecified 0.0.0.0 and :: (a server bound there listens on every interface), the
//   deprecated IPv4-compatible ::127.0.0.1, and the translated or NAT64 forms (they leave the machine).
// No name is resolved here: a name that is not reserved for loopback is not loopback, whatever it resolves to.
import ipaddr from 'ipaddr.js';

const LOCALHOST_NAME = /^(?:[a-z0-9_-]+\.)*localhost$/;
/** 127.x.y.z written as a URL's hostname writes it (every byte in decimal, no leading zero): loopback at once. */
const CANONICAL_127 = /^127(?:\.(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

/** `host`: a URL's hostname (IPv6 in brackets) or an address as a socket gives it. */
export function isLoopbackHost(host: string): boolean {
  const name = host.toLowerCase().replace(/\.$/, '');
  if (LOCALHOST_NAME.test(name)) return true;
  // the sandbox's and most local services' host, checked before every request with credentials: ipaddr.js
  // compiles its parsers on first use, a millisecond of a one-request command, for the answer this gives
  if (CANONICAL_127.test(name)) return true;
  const literal = name.startsWith('[') && name.endsWith(']') ? name.slice(1, -1) : name;
  // ipaddr.process turns an IPv4-mapped address into the IPv4 address it maps
  return ipaddr.isValid(literal) && ipaddr.process(literal).range() === 'loopback';
}

/** Whether an absolute URL points at this machine; false for text that is not a URL. */
export function isLoopbackUrl(url: string): boolean {
  return URL.canParse(url) && isLoopbackHost(new URL(url).hostname);
}
