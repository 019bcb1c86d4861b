// How a fault rule answers: an error as the spec says errors look (problem+json with a stable code and, for
// 429 and 503, Retry-After; RFC 6749 JSON for 400 and 401 from the token endpoint), or a damaged body.
import { problem, problemReply } from '../common/problems.js';
import { scopeFor, OPERATIONS } from '../../openapi/operations.js';
import type { Reply } from '../common/reply.js';
import type { FaultAnswer, FaultRule } from './rules.js';

const DEFAULT_CODES: Record<number, string> = {
  400: 'request.invalid_parameter',
  401: 'auth.token_invalid',
  403: 'auth.scope_missing',
  404: 'resource.not_found',
  409: 'resource.conflict',
  412: 'precondition.failed',
  422: 'request.unprocessable',
  429: 'rate_limit.exceeded',
  500: 'internal.error',
  503: 'service.unavailable',
};
const API_OPERATIONS = new Set<string>(OPERATIONS.map((op) => op.operationId));

/** The error a status rule answers with; nothing of the request was carried out. */
export function faultErrorReply(rule: FaultRule, operationId: string | null, tokenEndpoint: boolean): Reply {
  const answer = rule.respond;
  const status = answer.status!;
  const detail = answer.detail ?? `Injected fault ${rule.id}: this request was answered ${status} without being carried out.`;
  if (tokenEndpoint && (status === 400 || status === 401)) {
    const error = answer.code ?? (status === 401 ? 'invalid_client' : 'invalid_request');
    return {
      status,
      headers: { 'cache-control': 'no-store', ...(status === 401 ? { 'www-authenticate': 'Bearer realm="fleet"' } : {}) },
      json: { error, error_description: detail },
    };
  }
  const code = answer.code ?? DEFAULT_CODES[status]!;
  const headers: Record<string, string> = {};
  if (status === 429 || status === 503) headers['retry-after'] = String(answer.retry_after ?? 1);
  if (status === 401) headers['www-authenticate'] = 'Bearer realm="fleet", error="invalid_token"';
  const scope = status === 403 && code === 'auth.scope_missing' && operationId && API_OPERATIONS.has(operationId) ? scopeFor(operationId) : undefined;
  return problemReply(problem(status, code, detail, { headers, ...(scope ? { required_scope: scope } : {}) }));
}

/** A complete answer whose body is not valid JSON: its first half and a marker (same length on the wire as sent). */
export function malformedBody(body: Buffer): Buffer {
  return Buffer.concat([body.subarray(0, Math.floor(body.length / 2)), Buffer.from('<<injected fault: malformed body>>')]);
}

/** For the log: what the rule did. */
export function describeAnswer(answer: FaultAnswer): string {
  const parts: string[] = [];
  if (answer.delay_ms !== undefined) parts.push(`delayed ${answer.delay_ms} ms`);
  if (answer.status !== undefined) parts.push(`answered ${answer.status}${answer.code ? ` ${answer.code}` : ''}`);
  if (answer.drop) parts.push('dropped the connection');
  if (answer.body) parts.push(`${answer.body} the body`);
  return parts.join(', then ');
}
