// Secrets never reach a trace: Authorization, client secrets, access tokens, webhook keys.

const SECRET_HEADERS = new Set(['authorization', 'proxy-authorization', 'x-webhook-key', 'cookie', 'set-cookie']);
/**
 * Headers a service may take a credential in, by a word of their name (X-Api-Key, X-Auth-Token, Private-Token,
 * Api-Secret): one given with `api -H` is as secret as Authorization. An Idempotency-Key is not a secret (the
 * ledger keeps it to replay a change).
 */
const SECRET_HEADER_WORD = /(^|[-_])(key|apikey|token|secret|password|passwd|auth|authentication|credentials?|session|signature)([-_]|$)/;
const NOT_SECRET_HEADERS = new Set(['idempotency-key']);

function isSecretHeader(lower: string): boolean {
  return SECRET_HEADERS.has(lower) || (SECRET_HEADER_WORD.test(lower) && !NOT_SECRET_HEADERS.has(lower));
}
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
    if (!isSecretHeader(lower)) out[name] = text;
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

/** Flags whose value is a secret: a webhook key, a bearer token, a client secret given on the line. */
const SECRET_FLAGS = new Set(['--key', '--previous-key', '--control-token', '--client-secret', '--token', '--password', '--auth-key']);
/** Flags whose value is a header line (`Name: value`), redacted as the trace redacts headers. */
const HEADER_FLAGS = new Set(['-H', '--header']);

/**
 * A command line (the words after `fleetctl`) with every secret replaced: the value of a secret flag, a secret
 * header given with -H, a `field=value` whose field holds secrets (`-f auth_key=...`), the word after a secret
 * setting's name (`config set client_secret VALUE`), and the secret members of a JSON argument.
 */
export function redactCommandLine(words: readonly string[]): string[] {
  const out: string[] = [];
  let next: ((word: string) => string) | undefined;
  for (const word of words) {
    if (next) {
      out.push(next(word));
      next = undefined;
      continue;
    }
    const [flag, inline] = splitFlag(word);
    const valueRedaction = SECRET_FLAGS.has(flag) ? () => REDACTED : HEADER_FLAGS.has(flag) ? redactHeaderLine : undefined;
    if (valueRedaction && inline !== undefined) out.push(`${flag}=${valueRedaction(inline)}`);
    else if (valueRedaction) (out.push(word), (next = valueRedaction));
    else if (SECRET_FIELDS.has(word)) (out.push(word), (next = () => REDACTED));
    else out.push(redactWord(word));
  }
  return out;
}

function splitFlag(word: string): [string, string | undefined] {
  const at = word.startsWith('--') ? word.indexOf('=') : -1;
  return at < 0 ? [word, undefined] : [word.slice(0, at), word.slice(at + 1)];
}

function redactHeaderLine(line: string): string {
  const at = line.indexOf(':');
  if (at < 0) return line;
  const name = line.slice(0, at).trim();
  return `${name}: ${redactHeaders({ [name]: line.slice(at + 1).trim() })[name]}`;
}

/** `auth_key=...` (a field of `fleetctl api`), or a JSON body given inline. */
function redactWord(word: string): string {
  const field = /^([A-Za-z_][\w.]*)(:?=)/.exec(word);
  if (field && SECRET_FIELDS.has(field[1]!.split('.').pop()!)) return `${field[1]}${field[2]}${REDACTED}`;
  if (!/^\s*[[{]/.test(word)) return word;
  try {
    return JSON.stringify(redactJson(JSON.parse(word)));
  } catch {
    return word;
  }
}
