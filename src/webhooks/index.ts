// Webhook building blocks shared by the sandbox (write-time URL policy, delivery) and the CLI
// (`webhook listen`, `webhook trigger`, topics and event types). Import from here; the files behind it may be
// reorganised. Cheap to import: undici and the servers are loaded only when a delivery or a receiver starts.
export {
  TOPIC_TYPES, MAX_TOPICS, MAX_CALLBACK_URL_LENGTH, checkCallbackUrl, isBlockedAddress, isTopicType, isCallbackUrlShapeIssue,
} from './callback-url.js';
export type { TopicType } from './callback-url.js';
export * from './cloudevents.js';
export { DeliveryEngine, DEFAULT_DELIVERY_RETRY } from './delivery.js';
export type { DeliveryRetryPolicy, DeliveryLogEntry } from './delivery.js';
export type { Resolver } from './destination-address.js';
export { startReceiver } from './receiver.js';
export type { RunningReceiver, ReceivedDelivery, RejectedDelivery } from './receiver.js';
export type { ReceivedEnvelope } from './envelope-reading.js';
export { triggerSampleEvent } from './send.js';
