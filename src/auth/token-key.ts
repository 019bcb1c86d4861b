// The one format of a token cache key: to whom a token was issued (profile, issuer, client id and a fingerprint
// of the client's credentials) and for which scope. Only this module writes or reads keys.
// The HMAC is @noble/hashes' (audited, plain JavaScript), not node:crypto's: every call that uses a cached token
// computes it, and loading node:crypto (OpenSSL's set-up and some fifteen modules) took 4 to 9 ms of such a
// call on Node 22 to 26, for a hash of some fifty bytes that takes microseconds.
import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';

export interface TokenOwner {
  profile: string;
  /** The auth URL, or the name standing for it when that URL changes from run to run (the embedded sandbox). */
  issuer: string;
  clientId: string;
  /** credentialFingerprint(clientId, clientSecret): a changed or mistyped secret gives another key. */
  fingerprint: string;
}

export interface TokenKey extends TokenOwner {
  scope: string;
}

const FORMAT = 'v2';
const FINGERPRINT = /^[0-9a-f]{16}$/;

/**
 * A keyed hash of the client id under the secret, cut to 64 bits: enough that two secrets never share a token,
 * while the config file holds nothing from which the secret could be read back.
 */
export function credentialFingerprint(clientId: string, clientSecret: string): string {
  return bytesToHex(hmac(sha256, utf8ToBytes(clientSecret), utf8ToBytes(`fleetctl token cache\0${clientId}`))).slice(0, 16);
}

/** Whose tokens these credentials may use: a token is never shared across profiles, issuers, clients or secrets. */
export function tokenOwner(who: { profile: string; issuer: string; clientId: string; clientSecret: string }): TokenOwner {
  return { profile: who.profile, issuer: who.issuer, clientId: who.clientId, fingerprint: credentialFingerprint(who.clientId, who.clientSecret) };
}

/** Whether a cached token was issued to this owner, so it may be used (for its scope). */
export function isIssuedTo(key: TokenKey, owner: TokenOwner): boolean {
  return key.profile === owner.profile && key.issuer === owner.issuer && key.clientId === owner.clientId && key.fingerprint === owner.fingerprint;
}

/** Each part is URI-encoded, so a `|` in a profile name or URL never shifts the fields. */
export function tokenCacheKey(key: TokenKey): string {
  const parts = [key.profile, key.issuer, key.clientId, key.fingerprint, key.scope].map(encodeURIComponent);
  return [FORMAT, ...parts].join('|');
}

/** The parts of a key; undefined for anything else (a key written by an older version, which nothing can match). */
export function parseTokenCacheKey(key: string): TokenKey | undefined {
  const fields = key.split('|');
  if (fields.length !== 6 || fields[0] !== FORMAT) return undefined;
  let decoded: string[];
  try {
    decoded = fields.slice(1).map(decodeURIComponent);
  } catch {
    return undefined;
  }
  const [profile, issuer, clientId, fingerprint, scope] = decoded;
  if (!FINGERPRINT.test(fingerprint) || !profile || !scope) return undefined;
  return { profile, issuer, clientId, fingerprint, scope };
}

/** Whether a cache entry under this key can ever be used again (an older format: never). */
export function isCurrentTokenKey(key: string): boolean {
  return parseTokenCacheKey(key) !== undefined;
}

/** Removes the profile's tokens (and keys of an older format, unusable anyway); returns how many of the profile went. */
export function dropProfileTokens(tokens: Record<string, unknown>, profile: string): number {
  let dropped = 0;
  for (const key of Object.keys(tokens)) {
    const parsed = parseTokenCacheKey(key);
    if (parsed && parsed.profile !== profile) continue;
    if (parsed) dropped++;
    delete tokens[key];
  }
  return dropped;
}
