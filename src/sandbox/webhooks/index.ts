// Webhook delivery in the sandbox; src/sandbox/index.ts wires it in.
export { SandboxWebhookDelivery } from './delivery.js';
export { sandboxWebhookRoutes } from './routes.js';
