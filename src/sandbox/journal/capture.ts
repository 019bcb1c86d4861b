// What the journal keeps of a request and its answer, made safe when the entry is made: the Authorization
// header as its scheme only, secrets in form fields, JSON members and query parameters replaced (the same
// rules as --debug traces, src/api/redact.ts), bodies cut after 8 KiB.
import { REDACTED, SECRET_FIELD_NAMES, redactForm, redactJson } from '../../api/redact.js';

export const MAX_JOURNAL_BODY_CHARS = 8192;

const SECRET_MEMBER = new RegExp(`"(${SECRET_FIELD_NAMES.join('|')})"`);

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
export function redactedBody(raw: Buffer | string | undefined, contentType: string | undefined): string | null {
  if (raw === undefined || raw.length === 0) return null;
  const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  let text: string;
  if (type === 'application/x-www-form-urlencoded') text = redactForm(raw.toString());
  else if (type === 'application/json' || type.endsWith('+json')) text = redactedJson(raw.toString());
  else if (type.startsWith('text/')) text = raw.toString();
  else return `(${raw.length} bytes of ${type || 'untyped data'})`;
  return text.length > MAX_JOURNAL_BODY_CHARS ? `${text.slice(0, MAX_JOURNAL_BODY_CHARS)}… (${text.length - MAX_JOURNAL_BODY_CHARS} more characters)` : text;
}

function redactedJson(text: string): string {
  if (!SECRET_MEMBER.test(text)) return text;
  try {
    return JSON.stringify(redactJson(JSON.parse(text)));
  } catch {
    // not JSON after all, yet it names a secret member: keep nothing of it
    return `(${text.length} characters, not valid JSON, withheld: it may hold a secret)`;
  }
}
