// Sandbox-only webhook control routes (common/control-openapi.json, tag webhooks):
//   POST /_sandbox/emit {"type": TYPE, "count": N, "organization_id"?: ID} → 202 {events: [...]}
//   GET  /_sandbox/deliveries → every delivery attempt, oldest first
import type { EventType } from '../../webhooks/index.js';
import { invalidBody } from '../common/problems.js';
import type { ControlRoute } from '../app.js';
import type { SandboxWebhookDelivery } from './delivery.js';

export function sandboxWebhookRoutes(delivery: SandboxWebhookDelivery): ControlRoute[] {
  return [
    {
      method: 'POST',
      path: '/_sandbox/emit',
      operationId: 'emitWebhookEvents',
      async handler(ctx, app) {
        // the control document's EmitRequest schema has checked the shape (routes/index.ts)
        const body = (await ctx.jsonBody()) as { type: EventType; count?: number; organization_id?: string };
        const org = body.organization_id;
        if (org !== undefined && !app.world.organizations.has(org)) {
          throw invalidBody('organization_id', 'must be the id of a seeded organization');
        }
        const events = delivery.emit(body.type, body.count ?? 1, org);
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
