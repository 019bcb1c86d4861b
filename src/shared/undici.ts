// The parts of undici that fleetctl's requests use (API, token, signed URLs, webhook deliveries), each caller loading
// this module on first use (`await import`), so that start-up never pays for it. undici's index loads all the others as well (fetch,
// WebSocket, caches, mocks; and the fetch globals it touches load Node's own copy of undici): about 1 MB of
// code for every command that makes a request, half of its time on a quiet machine. undici has no "exports"
// map, so its files can be imported one by one; test/shared/undici.test.ts checks these still exist.
import type { Dispatcher } from 'undici';
import Agent from 'undici/lib/dispatcher/agent.js';
import dispatcherRequest from 'undici/lib/api/api-request.js';
import DispatcherBase from 'undici/lib/dispatcher/dispatcher.js';
import dispatcherApi from 'undici/lib/api/index.js';

// undici's index gives every dispatcher its request/stream/pipeline/upgrade/connect methods; the proxy agents
// open their CONNECT tunnels through `connect`, so the same is done here (without the index's other 1 MB).
Object.assign(DispatcherBase.prototype, dispatcherApi);

export { Agent };

/** The proxy agent, loaded only when a proxy is set: with its SOCKS5 client it is a tenth of the code a request loads. */
export async function loadEnvHttpProxyAgent(): Promise<typeof import('undici').EnvHttpProxyAgent> {
  return (await import('undici/lib/dispatcher/env-http-proxy-agent.js')).default;
}

/** What undici.request takes; without a dispatcher, one agent of this module's own (never a process-wide global). */
export type RequestOptions = Omit<Dispatcher.RequestOptions, 'origin' | 'path'> & { dispatcher?: Dispatcher };

let defaultAgent: Agent | undefined;

/** undici.request(url, options): the request split into origin and path, as undici's index does, and sent through the dispatcher. */
export function request(url: string, { dispatcher, ...options }: RequestOptions): Promise<Dispatcher.ResponseData> {
  const target = new URL(url);
  const send = () => dispatcherRequest.call(dispatcher ?? (defaultAgent ??= new Agent()), { ...options, origin: target.origin, path: `${target.pathname}${target.search}` });
  return parserCompiled ? send() : withBaselineParser(send);
}

// undici parses responses with llhttp compiled to WebAssembly: one instance per process, compiled on the first
// connection. V8 starts it in its baseline compiler (Liftoff) and, once a function has run a budget of bytes,
// recompiles it with its optimizing compiler on a background thread. On Node 20 (V8 11) that costs twice:
// the budget is spent within the first response and the process cannot exit until the compile ends (about
// 100 ms per command on a 2-core machine), and on a run of many pages the compile's memory is a quarter of
// the peak (about 20 MB; Liftoff's parser is not measurably slower at paging). So on V8 11 the module is
// compiled with Liftoff only: the flag is set for the first request, which compiles it, and reset once an
// answer has come. V8 12 and later (Node 22, 24) neither wait nor measurably gain. A flag changed at run time
// also stops V8 accepting cached code, hence the narrow window.
export const PARSER_COMPILE_FLAGS = ['--liftoff-only', '--no-liftoff-only'] as const;
let parserCompiled = !process.versions.v8.startsWith('11.');

async function withBaselineParser(send: () => Promise<Dispatcher.ResponseData>): Promise<Dispatcher.ResponseData> {
  const v8 = process.getBuiltinModule('node:v8');
  v8.setFlagsFromString(PARSER_COMPILE_FLAGS[0]);
  try {
    const response = await send();
    // an answer means a connection, and so the parser compiled under the flag; a refused connection compiled none
    parserCompiled = true;
    return response;
  } finally {
    v8.setFlagsFromString(PARSER_COMPILE_FLAGS[1]);
  }
}

export type Undici = Pick<typeof import('undici'), 'Agent'> & { loadEnvHttpProxyAgent: typeof loadEnvHttpProxyAgent };
