// node:crypto, loaded where a hash or random bytes are first needed rather than where a module imports it:
// loading it (OpenSSL's set-up and some fifteen modules) took 4 to 9 ms of a call on Node 22 to 26, and a lookup
// with a cached token hashes nothing (the token cache's HMAC is @noble/hashes', src/auth/token-key.ts).
// test/build/startup.test.ts holds such a call to it; test/shared/node-crypto.test.ts keeps src/ importing it here.

export function nodeCrypto(): typeof import('node:crypto') {
  return process.getBuiltinModule('node:crypto');
}
