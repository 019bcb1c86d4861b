// What the journal keeps of a request and its answer, made safe when the entry is made: the Authorization
// header as its scheme only, secrets in form fields, JSON members and query parameters replaced (the same
// rules as --debug traces, src/api/redact.ts), bodies cut after 8 KiB.
import { REDACTED, SECRET_FIELD_NAMES, redactForm, redactJson } from '../../shared/redact.js';

export const MAX_JOURNAL_BODY_CHARS = 8192;

const SECRET_MEMBERS = SECRET_FIELD_NAMES.map((name) => Buffer.from(`"${name}"`));

/** `Bearer [REDACTED]`: whether a credential was sent, and of which kind, never the credential. */
export function authorizationSummary(header: string | undefined): string | null {
  if (header === undefined) return null;
  const scheme = header.trim().split(/\s+/)[0];
  return scheme ? `${scheme} ${REDACTED}` : REDACTED;
}

/** A query string (without ?) with secret parameters replaced. */
export function redactedQuery(search: string): string {
  const query = search.startsWith('?') ? search.slice(1) : search;
  return query === '' ? '' : redactForm(query);
}

/** A body as text, secrets replaced, cut after 8 KiB; null when empty. */
export function redactedBody(raw: Buffer | undefined, contentType: string | undefined): string | null {
  if (raw === undefined || raw.length === 0) return null;
  const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  if (type === 'application/x-www-form-urlencoded') return cut(redactForm(raw.toString()));
  if (type === 'application/json' || type.endsWith('+json')) return redactedJson(raw);
  if (type.startsWith('text/')) return cut(raw.toString());
  return `(${raw.length} bytes of ${type || 'untyped data'})`;
}

function redactedJson(raw: Buffer): string {
  // Only the beginning is kept, and a secret's member name comes before its value: when the beginning names
  // no secret member, it holds no secret (a page of 500 devices is not scanned, nor decoded, to its end).
  const head = raw.subarray(0, MAX_JOURNAL_BODY_CHARS * 4 + 64);
  if (!SECRET_MEMBERS.some((member) => head.includes(member))) {
    return head.length < raw.length ? cut(head.toString(), raw.length) : cut(raw.toString());
  }
  try {
    return cut(JSON.stringify(redactJson(JSON.parse(raw.toString()))));
  } catch {
    // not JSON after all, yet it names a secret member: keep nothing of it
    return `(${raw.length} bytes, not valid JSON, withheld: it may hold a secret)`;
  }
}

/** The text cut after 8 KiB, saying how much more there was (in characters, or bytes when only a prefix was decoded). */
function cut(text: string, totalBytes?: number): string {
  if (text.length <= MAX_JOURNAL_BODY_CHARS && totalBytes === undefined) return text;
  const kept = text.slice(0, MAX_JOURNAL_BODY_CHARS);
  const more = totalBytes === undefined ? `${text.length - kept.length} more characters` : `${totalBytes - Buffer.byteLength(kept)} more bytes`;
  return `${kept}… (${more})`;
}
