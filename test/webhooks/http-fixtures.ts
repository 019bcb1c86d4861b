// Real local HTTP servers on ephemeral ports, recording what they receive, for the webhook tests.
import { createServer } from 'node:http';
import type { IncomingHttpHeaders, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export type Responder = (req: ReceivedRequest, res: ServerResponse, index: number) => void;

export interface RecordingServer {
  url: string;
  port: number;
  requests: ReceivedRequest[];
  connections: number;
  respond: Responder;
  close(): Promise<void>;
}

const ok: Responder = (_req, res) => {
  res.writeHead(200).end('ok');
};

/** Starts a server on 127.0.0.1 (port 0 = ephemeral) that records each request, then answers with `respond`. */
export async function startRecordingServer(respond: Responder = ok, port = 0): Promise<RecordingServer> {
  const state: RecordingServer = {
    url: '',
    port: 0,
    requests: [],
    connections: 0,
    respond,
    close: async () => undefined,
  };
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const received = {
        method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8'),
      };
      state.requests.push(received);
      state.respond(received, res, state.requests.length - 1);
    });
  });
  server.on('connection', () => {
    state.connections += 1;
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  state.port = (server.address() as AddressInfo).port;
  state.url = `http://127.0.0.1:${state.port}`;
  state.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return state;
}

/** A port that was free a moment ago (nothing listens on it now). */
export async function freePort(): Promise<number> {
  const s = await startRecordingServer();
  await s.close();
  return s.port;
}

export async function waitFor(check: () => boolean, timeoutMs = 5000): Promise<void> {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > timeoutMs) throw new Error('timed out waiting for a condition');
    await new Promise((r) => setTimeout(r, 5));
  }
}
