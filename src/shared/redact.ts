// Secrets never reach a trace: Authorization, client secrets, access tokens, webhook keys.

const SECRET_HEADERS = new Set(['authorization', 'proxy-authorization', 'x-webhook-key', 'cookie', 'set-cookie']);
const SECRET_FIELDS = new Set(['client_secret', 'access_token', 'refresh_token', 'auth_key', 'id_token', 'password']);
export const REDACTED = '[REDACTED]';
/** The JSON members and form fields that hold secrets (the sandbox's request journal redacts them too). */
export const SECRET_FIELD_NAMES: readonly string[] = [...SECRET_FIELDS];

export function redactHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    const text = Array.isArray(value) ? value.join(', ') : value;
    const lower = name.toLowerCase();
    if (!SECRET_HEADERS.has(lower)) out[name] = text;
    else out[name] = lower === 'authorization' ? `${text.split(' ')[0]} ${REDACTED}` : REDACTED;
  }
  return out;
}

/** A form-encoded body (the token request) with its secret fields replaced. */
export function redactForm(body: string): string {
  const params = new URLSearchParams(body);
  for (const key of [...params.keys()]) {
    if (SECRET_FIELDS.has(key)) params.set(key, REDACTED);
  }
  return params.toString().replaceAll(encodeURIComponent(REDACTED), REDACTED);
}

/** A JSON value with every secret member replaced, however deep. */
export function redactJson(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redactJson);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, member] of Object.entries(value)) {
    out[key] = SECRET_FIELDS.has(key) && typeof member === 'string' ? REDACTED : redactJson(member);
  }
  return out;
}
