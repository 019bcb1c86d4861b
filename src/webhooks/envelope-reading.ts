// How `webhook listen` reads a delivery. The spec rules out only a body that is not a CloudEvents 1.0 structured
// envelope with id, source, type and specversion; payload properties beyond those it lists are "not shown", so a
// real service may name them otherwise (journey coordinates above all). A delivery answered non-2xx is retried
// until the service gives up: what the spec allows is accepted, and how it differs from our document is named.
// --strict keeps the document's whole schema as the rule, for producers tested against it.
import { describeIssue, issueOf } from '../openapi/schema-check.js';
import { payloadMembers } from '../openapi/payload-members.js';
import * as schemas from '../openapi/validators.gen.js';
import { cutText } from '../shared/terminal-text.js';
import { CLOUDEVENTS_CONTENT_TYPE, validateEnvelope } from './cloudevents.js';
import { EVENT_TYPES, isEventType } from './event-payloads.js';

/** An envelope as received: the attributes every delivery carries, the rest as the producer sent it. */
export interface ReceivedEnvelope {
  id: string;
  source: string;
  type: string;
  specversion: '1.0';
  [attribute: string]: unknown;
}

export type EnvelopeReading =
  | { ok: true; event: ReceivedEnvelope; differences: string[] }
  | { ok: false; reason: string };

export interface ReadEnvelopeOptions {
  /** The delivery's media type, parameters left out. */
  contentType: string;
  /** Refuse whatever the document's schemas refuse (`webhook listen --strict`). */
  strict?: boolean;
}

/** Names listed in a warning at most: a payload of a thousand properties still makes one readable line. */
const MAX_NAMES = 8;

/**
 * The parsed body of a delivery: refused when it lacks what the spec requires (or, strict, fails the document),
 * otherwise accepted with how it differs from the document (none: []).
 */
export async function readEnvelope(body: unknown, opts: ReadEnvelopeOptions): Promise<EnvelopeReading> {
  const refuse = (reason: string): EnvelopeReading => ({ ok: false, reason: `invalid CloudEvents envelope: ${reason}` });
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return refuse('the body is not a JSON object');
  // CloudEvents JSON format: an attribute whose value is null is absent
  const envelope = Object.fromEntries(Object.entries(body).filter(([, value]) => value !== null));
  const core = issueOf(schemas.CloudEventCore, envelope);
  if (core) return refuse(describeIssue(core));
  if (opts.strict) {
    const strict = validateEnvelope(body);
    if (!strict.ok) return refuse(strict.reason);
  }
  const differences = await differencesOf(envelope as ReceivedEnvelope);
  if (opts.contentType !== CLOUDEVENTS_CONTENT_TYPE) {
    differences.unshift(`content type "${cutText(opts.contentType, 60)}", not ${CLOUDEVENTS_CONTENT_TYPE}`);
  }
  return { ok: true, event: body as ReceivedEnvelope, differences };
}

/** How an envelope with the required attributes differs from the document: unknown type, payload properties, values. */
async function differencesOf(envelope: ReceivedEnvelope): Promise<string[]> {
  if (!isEventType(envelope.type)) return [`type "${cutText(envelope.type, 60)}" is not one fleetctl knows (${EVENT_TYPES.join(', ')})`];
  const differences: string[] = [];
  const data = envelope.data;
  let missing: string[] = [];
  if (typeof data === 'object' && data !== null && !Array.isArray(data)) {
    const { required, named } = await payloadMembers(envelope.type);
    const present = Object.keys(data);
    missing = required.filter((name) => !present.includes(name));
    const unnamed = present.filter((name) => !named.includes(name));
    if (missing.length > 0) differences.push(`data lacks ${names(missing)}`);
    if (unnamed.length > 0) differences.push(`data has ${names(unnamed)}, which the document does not name`);
  }
  const checked = validateEnvelope(envelope);
  // a missing property is already named above; any other rule the document states is named as it words it
  const missingNamed = !checked.ok && missing.some((name) => checked.reason === `data.${name}: is required`);
  if (!checked.ok && !missingNamed) differences.push(checked.reason);
  return differences;
}

function names(list: string[]): string {
  const shown = list.slice(0, MAX_NAMES).map((name) => cutText(name, 40));
  return list.length > MAX_NAMES ? `${shown.join(', ')} and ${list.length - MAX_NAMES} more` : shown.join(', ');
}
