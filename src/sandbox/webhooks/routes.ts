// Sandbox-only webhook control routes (control/openapi.json, tag webhooks):
//   POST /_sandbox/emit {"type": TYPE, "count": N, "organization_id"?: ID} → 202 {events: [...]}
//   GET  /_sandbox/deliveries → every delivery attempt, oldest first
import { EVENT_TYPES, isEventType } from '../../webhooks/index.js';
import { rejectUnknownFields, requireObject } from '../http/body-schema.js';
import { isUuid } from '../../shared/uuid.js';
import { invalidBody } from '../http/problems.js';
import type { ControlRoute } from '../app.js';
import type { SandboxWebhookDelivery } from './delivery.js';

export const MAX_EMIT_COUNT = 1000;

export function sandboxWebhookRoutes(delivery: SandboxWebhookDelivery): ControlRoute[] {
  return [
    {
      method: 'POST',
      path: '/_sandbox/emit',
      operationId: 'emitWebhookEvents',
      async handler(ctx, app) {
        const body = requireObject(await ctx.jsonBody());
        rejectUnknownFields(body, ['type', 'count', 'organization_id']);
        if (!isEventType(body.type)) throw invalidBody('type', `must be one of ${EVENT_TYPES.join(', ')}`);
        const count = body.count ?? 1;
        if (typeof count !== 'number' || !Number.isInteger(count) || count < 1 || count > MAX_EMIT_COUNT) {
          throw invalidBody('count', `must be a whole number from 1 to ${MAX_EMIT_COUNT}`);
        }
        const org = body.organization_id;
        if (org !== undefined && (typeof org !== 'string' || !isUuid(org) || !app.world.organizations.has(org))) {
          throw invalidBody('organization_id', 'must be the id of a seeded organization');
        }
        const events = delivery.emit(body.type, count, org as string | undefined);
        return { status: 202, json: { events } };
      },
    },
    {
      method: 'GET',
      path: '/_sandbox/deliveries',
      operationId: 'listDeliveries',
      handler: () => ({
        status: 200,
        json: delivery.deliveries().map(({ event_id, type, url, attempt, status, outcome, reason, at }) => ({
          event_id, type, url, attempt, status, outcome, reason, at,
        })),
      }),
    },
  ];
}
