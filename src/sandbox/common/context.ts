// What a route handler gets (RequestContext); what it gives back is a Reply (reply.ts).
import type { IncomingMessage } from 'node:http';
import { problem } from './problems.js';
import type { Tenant } from './tenancy.js';

export interface AuthContext {
  clientId: string;
  organizationId: string;
  scopes: ReadonlySet<string>;
  tenant: Tenant;
}

export interface RequestContext {
  req: IncomingMessage;
  method: string;
  url: URL;
  params: Record<string, string>;
  query: URLSearchParams;
  /** Set for API routes (/v1/...), after the token and scope were checked. */
  auth: AuthContext | null;
  /** The raw request body (read once, cached). */
  rawBody(): Promise<Buffer>;
  /** The raw body if something read it, else undefined (the journal does not read bodies itself). */
  readBodyIfRead(): Promise<Buffer | undefined>;
  /** The JSON body, or undefined when the body is empty; 415/400 problems otherwise. */
  jsonBody(): Promise<unknown>;
}

export interface ApiContext extends RequestContext {
  auth: AuthContext;
}

export const MAX_BODY_BYTES = 1_048_576;

/** The client went away, or was timed out, before its request was complete: there is no one to answer. */
export class IncompleteRequestError extends Error {
  constructor() {
    super('the request ended before its body was complete');
    this.name = 'IncompleteRequestError';
  }
}

export function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    // already gone: its 'error' was emitted before anyone listened, and would never come now
    if (req.destroyed && !req.complete) {
      reject(new IncompleteRequestError());
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        reject(problem(400, 'request.invalid_body', `The request body exceeds ${MAX_BODY_BYTES} bytes.`));
        req.resume();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    // Node's only request error: the connection closed mid-body (the client left, or the server timed it out)
    req.on('error', () => reject(new IncompleteRequestError()));
  });
}

/** Parses a JSON request body: empty → undefined, otherwise it must be application/json. */
export function parseJsonBody(req: IncomingMessage, raw: Buffer): unknown {
  if (raw.length === 0) return undefined;
  const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/json' && !/^application\/[a-z0-9.+-]+\+json$/.test(type)) {
    throw problem(415, 'request.unsupported_media_type', `The request body must be application/json, not ${type || 'untyped'}.`);
  }
  let text: string;
  try {
    // fatal: a byte sequence that is not UTF-8 is refused, not stored as U+FFFD
    text = new TextDecoder('utf-8', { fatal: true }).decode(raw);
  } catch {
    throw problem(400, 'request.invalid_body', 'The request body is not valid UTF-8.');
  }
  try {
    return JSON.parse(text);
  } catch {
    throw problem(400, 'request.invalid_body', 'The request body is not valid JSON.');
  }
}
