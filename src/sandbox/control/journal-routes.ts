// GET /_sandbox/requests: the request journal, filtered (common/control-openapi.json, tag journal).
import { invalidParameter } from '../common/problems.js';
import { optionalBoolean, optionalString } from '../common/params.js';
import type { StatusFilter } from '../journal/journal.js';
import type { ControlRoute } from '../app.js';

export const journalRoutes: ControlRoute[] = [
  {
    method: 'GET',
    path: '/_sandbox/requests',
    operationId: 'listRequests',
    handler(ctx, app) {
      const q = ctx.query;
      const entries = app.journal.list({
        operationId: optionalString(q, 'operation_id'),
        clientId: optionalString(q, 'client_id'),
        hardwareId: optionalString(q, 'hardware_id'),
        status: statusFilter(optionalString(q, 'status')),
        after: wholeNumber(q, 'after', 0, Number.MAX_SAFE_INTEGER),
        limit: wholeNumber(q, 'limit', 1, 10_000),
        bodies: optionalBoolean(q, 'bodies') ?? false,
      });
      return { status: 200, headers: { 'cache-control': 'no-store' }, json: entries };
    },
  },
];

function statusFilter(value: string | undefined): StatusFilter | undefined {
  if (value === undefined) return undefined;
  if (value === 'dropped') return { dropped: true };
  if (/^[1-5]xx$/.test(value)) return { statusClass: Number(value[0]) };
  if (/^[1-5]\d\d$/.test(value)) return { status: Number(value) };
  throw invalidParameter('status', 'must be a status such as 503, a class such as 5xx, or dropped');
}

function wholeNumber(query: URLSearchParams, name: string, min: number, max: number): number | undefined {
  const value = optionalString(query, name);
  if (value === undefined) return undefined;
  if (!/^\d{1,16}$/.test(value) || Number(value) < min || Number(value) > max) throw invalidParameter(name, `must be a whole number from ${min} to ${max}`);
  return Number(value);
}
