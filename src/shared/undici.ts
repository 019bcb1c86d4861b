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
  return parserBudgetSet ? send() : withParserBudgetRaised(send);
}

// undici parses responses with llhttp compiled to WebAssembly: one instance per process, made on the first connection.
// V8 starts it in its baseline compiler and, once a function has run a budget of bytes, recompiles that function
// with its optimizing compiler on a background thread. On Node 20 (V8 11) the budget is spent within the first
// response and the process cannot exit until that compile ends: about 100 ms per command on a 2-core machine.
// The instance takes its budget from the flag when it is made, so the flag is raised tenfold for the first
// request only: one response, or a few, no longer start the compile; a run of many pages still does, and needs
// it (kept in the baseline compiler, the parser costs a paging run ~20 MB more peak memory). V8 12 and later
// (Node 22, 24) neither wait nor need it. A flag changed at run time also stops V8 accepting cached code, hence
// the narrow window.
export const V8_11_TIERING_BUDGET = 1_800_000;
export const PARSER_TIERING_BUDGET = 10 * V8_11_TIERING_BUDGET;
let parserBudgetSet = !process.versions.v8.startsWith('11.');

async function withParserBudgetRaised(send: () => Promise<Dispatcher.ResponseData>): Promise<Dispatcher.ResponseData> {
  const v8 = process.getBuiltinModule('node:v8');
  v8.setFlagsFromString(`--wasm-tiering-budget=${PARSER_TIERING_BUDGET}`);
  const response = await send();
  // a response means a connection, and so the parser instance, made with the raised budget
  if (!parserBudgetSet) v8.setFlagsFromString(`--wasm-tiering-budget=${V8_11_TIERING_BUDGET}`);
  parserBudgetSet = true;
  return response;
}

export type Undici = Pick<typeof import('undici'), 'Agent'> & { loadEnvHttpProxyAgent: typeof loadEnvHttpProxyAgent };
