// Webhook delivery in the sandbox (issue 6); src/sandbox/index.ts wires it in.
export { SandboxWebhookDelivery } from './delivery.js';
export type { SandboxWebhookOptions, EmittedSummary } from './delivery.js';
export { sandboxWebhookRoutes } from './routes.js';
export { DEFAULT_PROPAGATION_MS } from './subscriptions.js';
