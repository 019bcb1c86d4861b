// Which event a record is, across a whole list. spec: an event's id (the eventId of GET /v1/events/{eventId})
// is "an opaque composite: base64url encoding of the hardware id and the event id joined by a separator". A
// record may carry that composite, a per-device event id that repeats across devices, or both, under names the
// spec leaves unshown: the composite is found by what it decodes to, never by its member's name.
import { nodeCrypto } from '../shared/node-crypto.js';
import { hardwareIdOf, recordId, recordTime } from './members.js';

const BASE64URL = /^[A-Za-z0-9_-]{4,}$/;

/**
 * Whether a value is a composite event id: canonical base64url of printable text whose hardware-id part, before
 * a separator, is `hardwareId` when one is known, else any non-empty text before a separator that is not a
 * letter or digit (the spec does not name the separator).
 */
export function isCompositeEventId(value: unknown, hardwareId?: string): value is string {
  if (typeof value !== 'string' || !BASE64URL.test(value)) return false;
  const text = Buffer.from(value, 'base64url').toString('utf8');
  // the encoding is canonical both ways, and the text printable: random ids and uuids do not decode to such
  if (Buffer.from(text, 'utf8').toString('base64url') !== value || /[\p{Cc}\uFFFD]/u.test(text)) return false;
  if (hardwareId !== undefined) return text.length > hardwareId.length + 1 && text.startsWith(hardwareId) && !/[\p{L}\p{N}]/u.test(text[hardwareId.length]!);
  return /^[^\s]+?[^\p{L}\p{N}\s][^\s]+$/u.test(text);
}

/**
 * The composite event id a record carries: the member holding a composite of the record's own hardware id (or of
 * `hardwareId`, when the list is of one device and its records do not repeat it). Its identifier member (`id`,
 * `event_id`, `ref` ...) is tried first, then every other top-level string member.
 */
export function compositeEventIdOf(record: unknown, hardwareId?: string): string | undefined {
  if (record === null || typeof record !== 'object' || Array.isArray(record)) return undefined;
  const device = hardwareIdOf(record) ?? hardwareId;
  const named = recordId(record, 'event');
  if (isCompositeEventId(named, device)) return named;
  for (const value of Object.values(record as Record<string, unknown>)) if (isCompositeEventId(value, device)) return value;
  return undefined;
}

/**
 * The id to show and to pass to `events get` for a picked event: its composite id, else its identifier member
 * (a service may take either in the path: the service decides).
 */
export function eventIdOf(record: unknown, hardwareId?: string): string | undefined {
  return compositeEventIdOf(record, hardwareId) ?? recordId(record, 'event');
}

/**
 * What tells one event from every other in a list of many devices' events (--follow's dedupe, pickers): its
 * composite id; else its hardware id with its own id (a per-device id repeats across devices); else a digest of
 * the record, so that two events never pass for one.
 */
export function eventKey(record: unknown, hardwareId?: string): string {
  const composite = compositeEventIdOf(record, hardwareId);
  if (composite !== undefined) return composite;
  const own = recordId(record, 'event');
  const device = hardwareIdOf(record) ?? hardwareId;
  if (own !== undefined) return device === undefined ? own : `${device}\u0000${own}`;
  // a digest, not the text: --follow keeps up to 100,000 keys, and a record can be long
  return `sha256:${nodeCrypto().createHash('sha256').update(JSON.stringify(record) ?? '').digest('base64url')}`;
}

/** When an event happened: `triggered_at` in the bundled document, the spec's `triggerUtc`, else its own date-time (recordTime). */
export function eventTime(record: unknown): string {
  return recordTime(record, ['triggered_at', 'trigger_utc', 'triggerUtc', 'occurred_at']) ?? '';
}
