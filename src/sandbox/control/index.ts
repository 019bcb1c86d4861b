// Every control route (/_sandbox/*), one per operation of the control document (common/control-openapi.json).
import { worldRoutes } from './world-routes.js';
import { faultRoutes } from './fault-routes.js';
import { journalRoutes } from './journal-routes.js';
import { sandboxWebhookRoutes, type SandboxWebhookDelivery } from '../webhooks/index.js';
import type { ControlRoute } from '../app.js';

export function controlRoutes(delivery: SandboxWebhookDelivery): ControlRoute[] {
  return [...worldRoutes, ...sandboxWebhookRoutes(delivery), ...faultRoutes, ...journalRoutes];
}
