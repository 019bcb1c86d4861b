import { describe, expect, it } from 'vitest';
import {
  MAX_CALLBACK_URL_LENGTH,
  MAX_TOPICS,
  TOPIC_TYPES,
  checkCallbackUrl,
  classifyAddress,
  isBlockedAddress,
  isTopicType,
} from '../../src/webhooks/callback-url.js';
import document from '../../src/openapi/v1.json' with { type: 'json' };

describe('constants', () => {
  it('are the document\'s: WebhookTopicType, the topics\' maxItems, the callback URL\'s maxLength', () => {
    const schemas = document.components.schemas;
    expect([...TOPIC_TYPES]).toEqual(schemas.WebhookTopicType.enum);
    expect(MAX_TOPICS).toBe(schemas.WebhookConfigReplace.properties.topics.maxItems);
    expect(MAX_CALLBACK_URL_LENGTH).toBe(schemas.WebhookTopicDelivery.properties.url.maxLength);
    expect(isTopicType('live_gps')).toBe(true);
    expect(isTopicType('live.gps')).toBe(false);
    expect(isTopicType(3)).toBe(false);
  });
});

describe('checkCallbackUrl: acceptable URLs', () => {
  it.each([
    'https://example.com/hooks',
    'https://example.com:8443/a/b?c=d',
    'HTTPS://Example.COM/x',
    'https://8.8.8.8/hook',
    'https://[2606:4700:4700::1111]/hook',
    'https://[64:ff9b::808:808]/nat64-public', // NAT64 of 8.8.8.8
    'https://[2002:808:808::1]/6to4-public',
    // spec rule 3: host names are not resolved at write time, even ones that will resolve to loopback
    'https://localhost/hook',
    'https://internal.corp.example/hook',
    'https://example.com/' + 'a'.repeat(MAX_CALLBACK_URL_LENGTH - 'https://example.com/'.length),
  ])('%s', (url) => {
    expect(checkCallbackUrl(url)).toBeNull();
  });
});

describe('checkCallbackUrl: webhook.invalid_url', () => {
  it.each([
    ['', /empty/],
    ['/relative/path', /absolute/],
    ['example.com/hook', /absolute/],
    ['http://example.com/hook', /must use https, not http/],
    ['ftp://example.com/hook', /must use https/],
    ['https://', /absolute/],
    ['https://exa mple.com', /absolute/],
    ['https://1.2.3.4.5/', /absolute/],
    [' https://example.com', /whitespace/],
    ['https://user:pw@example.com/', /user name or password/],
    ['https://example.com/' + 'a'.repeat(MAX_CALLBACK_URL_LENGTH), /at most 2048/],
  ])('%j', (url, detail) => {
    const problem = checkCallbackUrl(url);
    expect(problem?.code).toBe('webhook.invalid_url');
    expect(problem?.detail).toMatch(detail);
  });

  it('refuses a URL whose normalized form exceeds the limit', () => {
    const url = 'https://example.com/' + ' '.repeat(MAX_CALLBACK_URL_LENGTH - 30) + 'x';
    expect(url.length).toBeLessThanOrEqual(MAX_CALLBACK_URL_LENGTH);
    expect(checkCallbackUrl(url)?.detail).toMatch(/normalized/);
  });
});

describe('checkCallbackUrl: webhook.ssrf_blocked for literal hosts in any notation', () => {
  it.each([
    // loopback, in every IPv4 notation WHATWG URL accepts
    'https://127.0.0.1/',
    'https://127.1/',
    'https://0x7f.1/',
    'https://0x7f000001/',
    'https://2130706433/',
    'https://0177.0.0.1/',
    'https://017700000001/',
    'https://127.0.0.1./',
    'https://%31%32%37.0.0.1/',
    'https://１２７.０.０.１/', // full-width digits, mapped by IDNA
    'https://127.255.255.254:8443/x',
    'https://[::1]/',
    'https://[0:0:0:0:0:0:0:1]/',
    // unspecified
    'https://0/',
    'https://0.0.0.0/',
    'https://[::]/',
    // private IPv4
    'https://10.0.0.1/',
    'https://172.16.0.1/',
    'https://172.31.255.255/',
    'https://192.168.1.1/',
    'https://0xc0a80101/',
    // link-local (cloud metadata endpoints)
    'https://169.254.169.254/latest/meta-data/',
    'https://[fe80::1]/',
    // IPv6 unique-local
    'https://[fc00::1]/',
    'https://[fd12:3456::1]/',
    // IPv4-mapped, whatever address it maps
    'https://[::ffff:7f00:1]/',
    'https://[::ffff:127.0.0.1]/',
    'https://[::ffff:10.0.0.1]/',
    'https://[::ffff:8.8.8.8]/',
    'https://[0:0:0:0:0:ffff:7f00:1]/',
    // IPv4-compatible (deprecated) and IPv4-translated
    'https://[::127.0.0.1]/',
    'https://[::ffff:0:7f00:1]/',
    // carrier-grade NAT, broadcast, multicast, reserved
    'https://100.64.0.1/',
    'https://255.255.255.255/',
    'https://224.0.0.1/',
    'https://[ff02::1]/',
    'https://240.0.0.1/',
    'https://192.0.2.10/',
    'https://[2001:db8::1]/',
    'https://[fec0::1]/',
    // 6to4 and NAT64 embedding private IPv4, Teredo, NAT64 local use
    'https://[2002:7f00:1::]/',
    'https://[2002:c0a8:101::1]/',
    'https://[64:ff9b::7f00:1]/',
    'https://[64:ff9b::10.1.2.3]/',
    'https://[64:ff9b:1::808:808]/',
    'https://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/',
  ])('%s', (url) => {
    const problem = checkCallbackUrl(url);
    expect(problem?.code).toBe('webhook.ssrf_blocked');
    expect(problem?.detail).toMatch(/blocked range/);
  });

  it('names the range in the detail', () => {
    expect(checkCallbackUrl('https://0x7f.1/')?.detail).toBe(
      'The callback host 127.0.0.1 is a literal address in a blocked range (loopback).',
    );
    expect(checkCallbackUrl('https://[::ffff:7f00:1]/')?.detail).toMatch(/\(ipv4Mapped\)/);
  });
});

describe('checkCallbackUrl with allowPrivate (local development)', () => {
  const opts = { allowPrivate: true };
  it.each([
    'http://127.0.0.1:3000/hook',
    'http://localhost:3000/hook',
    'http://[::1]:3000/hook',
    'https://10.0.0.1/hook',
    'https://127.1/hook',
  ])('accepts %s', (url) => {
    expect(checkCallbackUrl(url, opts)).toBeNull();
  });
  it.each(['http://example.com/hook', 'http://10.0.0.1/hook', 'ftp://127.0.0.1/'])('still refuses %s', (url) => {
    expect(checkCallbackUrl(url, opts)?.code).toBe('webhook.invalid_url');
  });
});

describe('isBlockedAddress (delivery-time DNS answers)', () => {
  it.each([
    '127.0.0.1', '127.5.6.7', '::1', '0.0.0.0', '::', '10.1.2.3', '172.20.0.1', '192.168.0.10',
    '169.254.169.254', 'fe80::1', 'fe80::1%eth0', 'fc00::1', 'fd00::abcd', '::ffff:127.0.0.1',
    '::ffff:93.184.216.34', '100.100.100.100', '224.0.0.251', 'ff02::fb', '255.255.255.255',
    '2002:a00:1::', '64:ff9b::a00:1', '::7f00:1', '198.18.0.1',
    // not an address at all: fail closed
    '', 'example.com', 'not-an-ip', '1.2.3.4.5',
  ])('blocks %j', (ip) => {
    expect(isBlockedAddress(ip)).toBe(true);
  });
  it.each(['8.8.8.8', '93.184.216.34', '1.1.1.1', '2606:4700:4700::1111', '2a00:1450:4001:80b::200e',
    '64:ff9b::808:808', '2002:808:808::', '192.52.193.1'])('approves %s', (ip) => {
    expect(isBlockedAddress(ip)).toBe(false);
  });
  it('explains embedded addresses', () => {
    expect(classifyAddress('2002:c0a8:101::')).toEqual({ blocked: true, range: '6to4 embedding 192.168.1.1 (private)' });
    expect(classifyAddress('::7f00:1')).toEqual({ blocked: true, range: 'ipv4Compatible' });
    expect(classifyAddress('nope')).toEqual({ blocked: true, range: 'not an IP address' });
  });
});
