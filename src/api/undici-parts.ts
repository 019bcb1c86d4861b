// The parts of undici that fleetctl's requests use. undici's index loads all the others as well (fetch,
// WebSocket, caches, mocks; and the fetch globals it touches load Node's own copy of undici): about 1 MB of
// code for every command that makes a request, half of its time on a quiet machine. undici has no "exports"
// map, so its files can be imported one by one; test/api/undici-parts.test.ts checks these still exist.
import type { Dispatcher } from 'undici';
import Agent from 'undici/lib/dispatcher/agent.js';
import EnvHttpProxyAgent from 'undici/lib/dispatcher/env-http-proxy-agent.js';
import dispatcherRequest from 'undici/lib/api/api-request.js';

export { Agent, EnvHttpProxyAgent };

/** What undici.request takes, the dispatcher required: fleetctl never falls back on a global one. */
export type RequestOptions = Omit<Dispatcher.RequestOptions, 'origin' | 'path'> & { dispatcher: Dispatcher };

/** undici.request(url, options): the request split into origin and path, as undici's index does, and sent through the dispatcher. */
export function request(url: string, { dispatcher, ...options }: RequestOptions): Promise<Dispatcher.ResponseData> {
  const target = new URL(url);
  return dispatcherRequest.call(dispatcher, { ...options, origin: target.origin, path: `${target.pathname}${target.search}` });
}
