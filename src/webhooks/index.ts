// Webhook building blocks shared by the sandbox (write-time URL policy, sending a delivery) and the CLI
// (`webhook listen`, `webhook trigger`, topics and event types). Import from here; the files behind it may be
// reorganised. Cheap to import: undici and the servers are loaded only when a delivery or a receiver starts.
export {
  TOPIC_TYPES, MAX_TOPICS, MAX_CALLBACK_URL_LENGTH, checkCallbackUrl, isBlockedAddress, isTopicType, isCallbackUrlShapeIssue,
} from './callback-url.js';
export type { TopicType } from './callback-url.js';
export * from './cloudevents.js';
export type { Resolver } from './destination-address.js';
export { startReceiver } from './receiver.js';
export type { RunningReceiver, ReceivedDelivery, RejectedDelivery } from './receiver.js';
export type { ReceivedEnvelope } from './envelope-reading.js';
export { triggerSampleEvent } from './send.js';
// what the sandbox's delivery engine (src/sandbox/webhooks/delivery-engine.ts) sends with and checks against
export { deliveryHeaders, deliveryIdempotencyKey, newTraceId, postDelivery, traceparentFor } from './send.js';
export type { PostOutcome } from './send.js';
export { approveDestination, pinnedLookup, systemResolver } from './destination-address.js';
