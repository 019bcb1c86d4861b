// The token cache key: one format, written and read only by src/auth/token-key.ts.
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { credentialFingerprint, dropProfileTokens, isIssuedTo, parseTokenCacheKey, tokenCacheKey, tokenOwner } from '../../src/auth/token-key.js';

const key = { profile: 'default', issuer: 'https://auth.fleet.test', clientId: 'ci-client', fingerprint: credentialFingerprint('ci-client', 's3cret'), scope: 'thirdparty.api.devices_read' };

describe('credentialFingerprint', () => {
  it('differs with the secret and with the client id, is stable, and does not contain the secret', () => {
    const fp = credentialFingerprint('ci-client', 's3cret');
    expect(fp).toMatch(/^[0-9a-f]{16}$/);
    expect(credentialFingerprint('ci-client', 's3cret')).toBe(fp);
    expect(credentialFingerprint('ci-client', 's3cres')).not.toBe(fp);
    expect(credentialFingerprint('ci-client2', 's3cret')).not.toBe(fp);
    // id and secret are not simply concatenated: moving a character from one to the other changes it
    expect(credentialFingerprint('ci-clients', '3cret')).not.toBe(fp);
  });

  it("is HMAC-SHA256 as node:crypto computes it, so the tokens cached by an earlier version stay usable (non-ASCII secrets too)", () => {
    for (const [clientId, secret] of [['ci-client', 's3cret'], ['sandbox-admin', 'sbx_6ix8bBRz3gA9zB9wvQN_rgOsUIJvYcvI'], ['clïent', 'sécret \u{1F511}'], ['c', 'x'.repeat(200)]]) {
      const expected = createHmac('sha256', secret).update(`fleetctl token cache\0${clientId}`).digest('hex').slice(0, 16);
      expect(credentialFingerprint(clientId, secret)).toBe(expected);
    }
  });
});

describe('tokenCacheKey / parseTokenCacheKey', () => {
  it('round-trips, whatever the profile, issuer or client id hold (| included)', () => {
    expect(parseTokenCacheKey(tokenCacheKey(key))).toEqual(key);
    const odd = { ...key, profile: 'a|b', issuer: 'https://x.test/p|q%7C', clientId: 'id with space|' };
    expect(parseTokenCacheKey(tokenCacheKey(odd))).toEqual(odd);
  });

  it('reads nothing from a key of the older format or a damaged key', () => {
    expect(parseTokenCacheKey('default|https://auth.fleet.test|ci-client|thirdparty.api.devices_read')).toBeUndefined();
    expect(parseTokenCacheKey(tokenCacheKey(key).replace(key.fingerprint, 'not-a-fingerprint'))).toBeUndefined();
    expect(parseTokenCacheKey('v2|%E0%A4%A|i|c|0123456789abcdef|s')).toBeUndefined();
  });
});

describe('dropProfileTokens', () => {
  it('drops the profile tokens and unreadable keys, keeps other profiles, and counts the profile only', () => {
    const tokens: Record<string, unknown> = {
      [tokenCacheKey(key)]: {},
      [tokenCacheKey({ ...key, scope: 'thirdparty.api.fleets_read' })]: {},
      [tokenCacheKey({ ...key, profile: 'staging' })]: {},
      'default|https://auth.fleet.test|ci-client|thirdparty.api.devices_read': {},
    };
    expect(dropProfileTokens(tokens, 'default')).toBe(2);
    expect(Object.keys(tokens)).toEqual([tokenCacheKey({ ...key, profile: 'staging' })]);
  });
});

describe('tokenOwner / isIssuedTo', () => {
  it('a cached token serves only the profile, issuer, client and secret it was issued to, whatever its scope', () => {
    const owner = tokenOwner({ profile: 'default', issuer: 'https://auth.fleet.test', clientId: 'ci-client', clientSecret: 's3cret' });
    expect(isIssuedTo(key, owner)).toBe(true);
    expect(isIssuedTo({ ...key, scope: 'thirdparty.api.fleets_read' }, owner)).toBe(true);
    expect(isIssuedTo(key, tokenOwner({ profile: 'default', issuer: 'https://auth.fleet.test', clientId: 'ci-client', clientSecret: 'rotated' }))).toBe(false);
    expect(isIssuedTo(key, { ...owner, profile: 'staging' })).toBe(false);
    expect(isIssuedTo(key, { ...owner, issuer: 'https://other.test' })).toBe(false);
    expect(isIssuedTo(key, { ...owner, clientId: 'other' })).toBe(false);
  });
});
