// Webhook delivery in the sandbox (issue 6); src/sandbox/index.ts wires it in.
export { SandboxWebhookDelivery } from './delivery.js';
export { sandboxWebhookRoutes } from './routes.js';
