// --debug: each request and response on stderr, with every secret redacted.
import type { Writable } from 'node:stream';
import { redactHeaders, redactJson, redactForm } from '../shared/redact.js';
import { cutText, safeText } from '../shared/terminal-text.js';

const MAX_TRACE_LINE = 800;

export interface Tracer {
  readonly enabled: boolean;
  request(method: string, url: string, headers: Record<string, string>, body?: string, contentType?: string): void;
  response(method: string, url: string, status: number, ms: number, headers: Record<string, string | string[] | undefined>): void;
  failure(method: string, url: string, ms: number, error: Error): void;
  note(message: string): void;
}

export const silentTracer: Tracer = {
  enabled: false,
  request() {},
  response() {},
  failure() {},
  note() {},
};

export function streamTracer(err: Writable): Tracer {
  // what is traced comes from the user and the service: made visible, and a body of megabytes cut
  const line = (text: string) => err.write(`[debug] ${cutText(safeText(text), MAX_TRACE_LINE)}\n`);
  const headerLines = (headers: Record<string, string | string[] | undefined>) => {
    for (const [name, value] of Object.entries(redactHeaders(headers))) line(`    ${name}: ${value}`);
  };
  return {
    enabled: true,
    request(method, url, headers, body, contentType) {
      line(`> ${method} ${redactUrl(url)}`);
      headerLines(headers);
      if (body !== undefined && body.length > 0) line(`    body: ${redactBody(body, contentType)}`);
    },
    response(method, url, status, ms, headers) {
      line(`< ${status} ${method} ${redactUrl(url)} (${ms} ms)`);
      headerLines(headers);
    },
    failure(method, url, ms, error) {
      line(`< failed ${method} ${redactUrl(url)} (${ms} ms): ${error.message}`);
    },
    note(message) {
      line(message);
    },
  };
}

function redactBody(body: string, contentType: string | undefined): string {
  if (contentType?.includes('x-www-form-urlencoded')) return redactForm(body);
  try {
    return JSON.stringify(redactJson(JSON.parse(body)));
  } catch {
    return body.length > 2000 ? `${body.slice(0, 2000)}…` : body;
  }
}

/** Signed download URLs carry their credential in the query string. */
function redactUrl(url: string): string {
  if (!URL.canParse(url)) return url;
  const parsed = new URL(url);
  for (const key of ['signature', 'sig', 'token', 'access_token', 'X-Amz-Signature']) {
    if (parsed.searchParams.has(key)) parsed.searchParams.set(key, 'REDACTED');
  }
  return parsed.toString();
}
