// Types for the undici files src/shared/undici.ts imports one by one (undici types only its index).
declare module 'undici/lib/dispatcher/agent.js' {
  import { Agent } from 'undici';
  export = Agent;
}
declare module 'undici/lib/dispatcher/env-http-proxy-agent.js' {
  import { EnvHttpProxyAgent } from 'undici';
  export = EnvHttpProxyAgent;
}
declare module 'undici/lib/api/api-request.js' {
  import type { Dispatcher } from 'undici';
  function request(this: Dispatcher, options: Dispatcher.RequestOptions): Promise<Dispatcher.ResponseData>;
  export = request;
}
declare module 'undici/lib/dispatcher/dispatcher.js' {
  import { Dispatcher } from 'undici';
  export = Dispatcher;
}
declare module 'undici/lib/api/index.js' {
  const api: Record<'request' | 'stream' | 'pipeline' | 'upgrade' | 'connect', (...args: never[]) => unknown>;
  export = api;
}
