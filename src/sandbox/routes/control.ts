// Routes outside both documents: the token endpoint and the API's OpenAPI document (no bearer token). The
// sandbox-only control routes under /_sandbox/ are in src/sandbox/control/.
import { handleTokenRequest } from '../auth/token-endpoint.js';
import { openApiDocument } from './openapi-document.js';
import type { PublicRoute } from '../app.js';

export const publicRoutes: PublicRoute[] = [
  {
    method: 'POST',
    path: '/connect/token',
    handler: (ctx, app) => {
      // issued tokens are state (the token store reports them): they outlive a restart (`fleetctl --sandbox` reuses its cached token)
      return handleTokenRequest(ctx, { clients: app.clients, tokens: app.tokens, ttlSeconds: app.tokenTtlSeconds });
    },
  },
  {
    method: 'GET',
    path: '/openapi/v1.json',
    handler: () => ({ status: 200, json: openApiDocument() }),
  },
];
