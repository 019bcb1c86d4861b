// What a request loads, at once: factory.ts and api/client-from-settings.ts import this one module when they build the
// transport or the API client, and the build makes one chunk of what it reaches (src/build/chunks.mjs derives the chunk from
// this module's imports, so a file moved or added here moves with it). A module every request needs is
// imported here; one a request needs only sometimes (undici's proxy agent) stays a dynamic import of its own.
export { assertSafeForCredentials } from '../auth/secure-url.js';
export { ApiClient } from './client.js';
export { CachingTokenSource } from '../auth/tokens.js';
export { operation } from '../openapi/operations.js';
export { createTransport } from '../http/transport.js';
export { proxyEnvironment, readCaBundle, NO_PROXY } from '../http/dispatcher.js';
// the transport imports undici when it makes its first dispatcher: imported here too, it loads with the rest
// of the request while the settings and the secret are read
import '../shared/undici.js';
