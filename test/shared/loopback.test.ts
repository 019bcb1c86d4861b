// The one loopback rule (src/shared/loopback.ts), as a table, and proof that every caller gives its answer: plain
// http with credentials, the served document's cache, http:// webhook destinations in local development and the
// sandbox's control token once disagreed (api.localhost, localhost. and [::ffff:127.0.0.1] each split them).
import fc from 'fast-check';
import ipaddr from 'ipaddr.js';
import { describe, expect, it } from 'vitest';
import { isLoopbackHost, isLoopbackUrl } from '../../src/shared/loopback.js';
import { assertSafeForCredentials } from '../../src/auth/secure-url.js';
import { checkCallbackUrl } from '../../src/webhooks/callback-url.js';
import { controlTokenFor } from '../../src/sandbox/control/control-token.js';

/** Hosts as typed in a URL: [host, loopback, why]. */
const URL_HOSTS: [string, boolean, string][] = [
  ['localhost', true, 'RFC 6761 reserved name'],
  ['LocalHost', true, 'names are case-insensitive'],
  ['localhost.', true, 'the same name written in full'],
  ['api.localhost', true, 'RFC 6761: names under localhost. are loopback'],
  ['a.b-c.localhost.', true, 'a deeper name, in full'],
  ['127.0.0.1', true, '127.0.0.0/8'],
  ['127.1.2.3', true, '127.0.0.0/8'],
  ['127.255.255.255', true, '127.0.0.0/8'],
  ['127.0.0.1.', true, 'URL parsing drops the dot of an IPv4 address'],
  ['127.1', true, 'short IPv4 notation, read as 127.0.0.1'],
  ['0x7f.0.0.1', true, 'hexadecimal IPv4 notation'],
  ['2130706433', true, 'IPv4 as one number'],
  ['[::1]', true, 'IPv6 loopback'],
  ['[0:0:0:0:0:0:0:1]', true, 'IPv6 loopback in full'],
  ['[::ffff:127.0.0.1]', true, 'IPv4-mapped: a dual-stack socket reaches 127.0.0.1'],
  ['[::ffff:7f00:2]', true, 'IPv4-mapped, hexadecimal'],
  ['localhost.evil.test', false, 'an ordinary name that starts with localhost'],
  ['evillocalhost', false, 'not a label of its own'],
  ['localhost-api.test', false, 'an ordinary name'],
  ['localhost..', false, 'one trailing dot is the full name; two are not a name'],
  ['.localhost', false, 'an empty label'],
  ['127.0.0.1.nip.io', false, 'a name, never resolved here'],
  ['example.com', false, 'an ordinary name'],
  ['126.255.255.255', false, 'just below 127.0.0.0/8'],
  ['128.0.0.1', false, 'just above 127.0.0.0/8'],
  ['10.0.0.1', false, 'private, not this machine'],
  ['0.0.0.0', false, 'unspecified: every interface'],
  ['[::]', false, 'unspecified: every interface'],
  ['[::2]', false, 'next to ::1'],
  ['[::7f00:1]', false, 'IPv4-compatible (deprecated): not routed to 127.0.0.1'],
  ['[::ffff:0:7f00:1]', false, 'IPv4-translated (RFC 6145): leaves the machine'],
  ['[64:ff9b::7f00:1]', false, 'NAT64: goes to a gateway'],
  ['[fe80::1]', false, 'link-local'],
];

/** Addresses as a bound socket reports them (server.address().address): [address, loopback]. */
const SOCKET_ADDRESSES: [string, boolean][] = [
  ['127.0.0.1', true],
  ['127.0.1.1', true],
  ['::1', true],
  ['::ffff:127.0.0.1', true],
  ['0.0.0.0', false],
  ['::', false],
  ['192.168.1.5', false],
  ['fe80::1%eth0', false],
  ['::ffff:10.0.0.1', false],
];

describe('the loopback rule', () => {
  it.each(URL_HOSTS)('%s → %s (%s)', (host, loopback) => {
    const url = `http://${host}:4010/path`;
    expect(isLoopbackHost(new URL(url).hostname)).toBe(loopback);
    expect(isLoopbackUrl(url)).toBe(loopback);
  });

  it.each(SOCKET_ADDRESSES)('bound address %s → %s', (address, loopback) => {
    expect(isLoopbackHost(address)).toBe(loopback);
  });

  // 127.x.y.z in a URL's own notation is answered before ipaddr.js is asked: the answer is the same for any four
  // bytes, and for the forms it leaves to ipaddr.js (a leading zero, a byte over 255)
  it('answers any dotted quad as ipaddr.js does, bare and as a URL writes it', () => {
    const byte = fc.oneof(fc.integer({ min: 0, max: 255 }).map(String), fc.constantFrom('00', '0127', '256', '1000'));
    const first = fc.oneof(byte, fc.constant('127'));
    fc.assert(
      fc.property(first, byte, byte, byte, (a, b, c, d) => {
        const host = `${a}.${b}.${c}.${d}`;
        const expected = ipaddr.isValid(host) && ipaddr.process(host).range() === 'loopback';
        expect(isLoopbackHost(host)).toBe(expected);
        if (URL.canParse(`http://${host}/`)) {
          const written = new URL(`http://${host}/`).hostname;
          expect(isLoopbackHost(written)).toBe(ipaddr.process(written).range() === 'loopback');
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('is false for text that is not a URL', () => {
    expect(isLoopbackUrl('localhost:4010')).toBe(false);
    expect(isLoopbackUrl('')).toBe(false);
    expect(isLoopbackHost('')).toBe(false);
  });
});

describe('every caller follows it', () => {
  it.each(URL_HOSTS)('plain http with credentials to %s: allowed = %s', (host, loopback) => {
    const check = () => assertSafeForCredentials(`http://${host}:4010`, 'the client secret', 'auth_url', false);
    if (loopback) expect(check).not.toThrow();
    else expect(check).toThrow(/refusing to send the client secret over plain http/);
  });

  it.each(URL_HOSTS)('an http:// webhook destination at %s in local development: accepted = %s', (host, loopback) => {
    const problem = checkCallbackUrl(`http://${host}:3000/hook`, { allowPrivate: true });
    expect(problem === null).toBe(loopback);
    if (!loopback) expect(problem?.code).toBe('webhook.invalid_url');
  });

  it.each(SOCKET_ADDRESSES)('a sandbox bound to %s needs no control token: %s', (address, loopback) => {
    expect(controlTokenFor(undefined, address) === undefined).toBe(loopback);
  });
});
