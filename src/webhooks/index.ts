// Webhook building blocks shared by the sandbox (write-time URL policy, delivery) and the CLI
// (`webhook listen`, `webhook trigger`, topics and event types). Import from here; the files behind it may be
// reorganised. Cheap to import: undici and the servers are loaded only when a delivery or a receiver starts.
export {
  TOPIC_TYPES, MAX_TOPICS, MAX_CALLBACK_URL_LENGTH, checkCallbackUrl, isBlockedAddress, classifyAddress, isTopicType,
  isLoopbackHost, isCallbackUrlShapeIssue,
} from './callback-url.js';
export type { TopicType, CallbackUrlProblem, CallbackUrlOptions, AddressVerdict } from './callback-url.js';
export * from './cloudevents.js';
export { DeliveryEngine, deliveryIdempotencyKey, DEFAULT_DELIVERY_RETRY } from './delivery.js';
export type {
  DeliveryRetryPolicy, DeliveryDestination, DeliveryEngineOptions, DeliveryLogEntry, DeliveryOutcome, DeliveryTimers,
} from './delivery.js';
export { systemResolver } from './destination-address.js';
export type { Resolver, ResolvedAddress } from './destination-address.js';
export { startReceiver, DEFAULT_MAX_BODY_BYTES } from './receiver.js';
export type { ReceiverOptions, RunningReceiver, ReceivedDelivery, RejectedDelivery } from './receiver.js';
export { DEFAULT_PREVIOUS_KEY_GRACE_MS } from './webhook-key.js';
export { triggerSampleEvent } from './send.js';
export type { TriggerOptions, TriggerResult, PostOutcome } from './send.js';
