// A Transport answering from a script: each request must be the next scripted one (method, path and query),
// and every scripted answer must be asked for by the end of the test (verified automatically, see fakes.ts)
// unless the test says why not with allowUnanswered. A request refused (unexpected, or not the scripted one)
// fails the test at its end even when the code under test caught the error.
import { expect } from 'vitest';
import type { HttpRequest, HttpResponse, Transport } from '../../src/http/transport.js';
import { checkReason, registerFake } from './fakes.js';

export interface ScriptedAnswer {
  method: string;
  /** Path and query as sent, e.g. /v1/drivers?limit=50 */
  path: string;
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface SentRequest extends HttpRequest {
  path: string;
  json?: unknown;
  scope?: string;
}

export interface ScriptedTransport extends Transport {
  /** Every request sent, in order. */
  readonly sent: SentRequest[];
  /** Fails now when a scripted answer was never asked for (the end of the test checks it anyway). */
  assertAllAnswered(): void;
  /** The answers still unused may stay so: for a test that means it, saying why. */
  allowUnanswered(why: string): void;
  /** The errors send threw for requests it refused, handed to the test (which then owns them) and forgotten. */
  takeRefusals(): unknown[];
}

/** `scopeOf`: the scope the request's token was asked for, recorded with each sent request. */
export function scriptedTransport(script: ScriptedAnswer[], scopeOf: () => string | undefined = () => undefined): ScriptedTransport {
  const answers = [...script];
  const sent: SentRequest[] = [];
  // what went wrong in send, kept for the end of the test too: the code under test may catch what send throws
  const refused: unknown[] = [];
  let allowed = false;
  const assertAllAnswered = () => expect(answers.map((a) => `${a.method} ${a.path}`), 'scripted transport answers never asked for').toEqual([]);
  /** The next answer, when it is for this request; what is refused is also kept for the end of the test. */
  const answerFor = (method: string, path: string): ScriptedAnswer => {
    try {
      const next = answers.shift();
      if (!next) throw new Error(`unexpected request ${method} ${path}`);
      expect(`${method} ${path}`).toBe(`${next.method} ${next.path}`);
      return next;
    } catch (error) {
      refused.push(error);
      throw error;
    }
  };
  const transport: ScriptedTransport = {
    sent,
    async send(request) {
      const url = new URL(request.url);
      const path = url.pathname + url.search;
      sent.push({ ...request, path, json: request.body ? JSON.parse(request.body) : undefined, scope: scopeOf() });
      const next = answerFor(request.method, path);
      const body = next.body === undefined ? '' : JSON.stringify(next.body);
      const status = next.status ?? 200;
      const type = status >= 400 ? 'application/problem+json' : 'application/json';
      return { status, headers: { 'content-type': type, ...next.headers }, text: body } satisfies HttpResponse;
    },
    stream: () => Promise.reject(new Error('no streams in unit tests')),
    assertAllAnswered,
    allowUnanswered(why) {
      checkReason(why);
      allowed = true;
    },
    takeRefusals: () => refused.splice(0),
  };
  registerFake({
    verify() {
      if (refused.length > 0) throw refused[0];
      if (!allowed) assertAllAnswered();
    },
  });
  return transport;
}
