// The members the bundled document names and requires for each webhook event's payload (the envelope's data), for
// the receiver to say how a delivery differs from it. The spec shows the envelope; the payloads' properties beyond
// those it lists are "not shown", so these are the bundled document's, read from its schemas once (on the first
// delivery) and never a reason to refuse one.
import { API_DOCUMENT } from './schema-check.js';
import { DATA_SCHEMA_NAMES, type EventType } from './webhook-events.gen.js';

export interface PayloadMembers {
  required: string[];
  named: string[];
}

type PayloadSchema = { required?: unknown; properties?: Record<string, unknown> } | undefined;

let payloadSchemas: Promise<Record<string, PayloadSchema>> | undefined;

/** The payload members of an event type the document requires and those it names (none when it has no such schema). */
export async function payloadMembers(type: EventType): Promise<PayloadMembers> {
  payloadSchemas ??= API_DOCUMENT.load().then((doc) => (doc as { components?: { schemas?: Record<string, PayloadSchema> } }).components?.schemas ?? {});
  const schema = (await payloadSchemas)[DATA_SCHEMA_NAMES[type]];
  const required = Array.isArray(schema?.required) ? schema.required.filter((name): name is string => typeof name === 'string') : [];
  const properties = schema?.properties;
  return { required, named: properties !== null && typeof properties === 'object' ? Object.keys(properties) : [] };
}
