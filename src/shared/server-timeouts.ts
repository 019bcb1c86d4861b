// How long a local HTTP server (the sandbox, `webhook listen`) waits for a request to arrive whole. Node's defaults
// (60 s for the headers, looked for every 30 s) let a few thousand slow connections hold every file descriptor:
// a slowloris then starves real requests. Shared by both servers so they close stalled connections alike.
import type { ServerOptions } from 'node:http';

/** The default of both: a client sending a request in good faith takes far less; the sandbox's 408 comes at this. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 20_000;

/**
 * A request (headers and body) must arrive within `requestMs`, else it is answered 408 and its connection closed.
 * Node looks for late requests only every connectionsCheckingInterval (30 s by default): looking every second,
 * or four times per period when it is shorter, answers at most that much late.
 */
export function serverTimeouts(requestMs: number): ServerOptions {
  return {
    keepAliveTimeout: 5_000,
    requestTimeout: requestMs,
    headersTimeout: requestMs,
    connectionsCheckingInterval: Math.max(1, Math.min(1_000, Math.floor(requestMs / 4))),
  };
}
