// What can never travel in a request is refused before it is sent: servers and proxies answer an oversized
// URL or header block with 414/431 (after a token was fetched for nothing), and an HTTP client refuses a header
// value with a NUL or a line break outright.
import { UsageError } from '../errors.js';
import { quoteInput } from '../shared/terminal-text.js';

/** Request target (path and query): 8 KB is what common servers and proxies accept, Node's own included. */
export const MAX_TARGET_LENGTH = 8000;
/** The headers the user adds, together; the token and fleetctl's own headers need the rest of the 16 KB. */
export const MAX_EXTRA_HEADERS_LENGTH = 8000;

// Field values of RFC 9110: tab, visible ASCII and obs-text; never NUL, CR or LF, nor anything above 0xff.
const NOT_FIELD_VALUE = /[^\t\x20-\x7e\x80-\xff]/;

/** One part of a request, as the user would recognise it: `the cursor parameter`, `the X-Trace header`. */
interface Part {
  what: string;
  value: string;
  /** Shown instead of the value (a header's length, not its content). */
  quoted?: string;
  size: number;
}

export function checkRequestFits(target: { path: string; query: [string, string][]; headers: Record<string, string> }): void {
  for (const [name, value] of Object.entries(target.headers)) checkHeaderValue(value, `the ${name} header`);
  const queryParts = target.query.map(([name, value]) => ({ what: `the ${name} parameter`, value, size: encodedLength(name) + encodedLength(value) + 2 }));
  const pathPart = { what: 'the path', value: target.path, size: target.path.length };
  const targetLength = queryParts.reduce((sum, part) => sum + part.size, pathPart.size);
  if (targetLength > MAX_TARGET_LENGTH) throw tooLarge([pathPart, ...queryParts], `the request URL (at most ${MAX_TARGET_LENGTH} characters)`);
  // a header may hold a secret: its value is not quoted
  const headerParts = Object.entries(target.headers).map(([name, value]) => ({ what: `the ${name} header`, value, quoted: `a value of ${value.length} characters`, size: name.length + value.length + 4 }));
  const headersLength = headerParts.reduce((sum, part) => sum + part.size, 0);
  if (headersLength > MAX_EXTRA_HEADERS_LENGTH) throw tooLarge(headerParts, `the request headers (at most ${MAX_EXTRA_HEADERS_LENGTH} characters)`);
}

/**
 * A value that travels as a header (an -H value, a webhook key) can: no NUL, no line break, nothing above 0xff.
 * The message shows the character, not the value: a header may hold a secret.
 */
export function checkHeaderValue(value: string, what: string): string {
  const at = value.search(NOT_FIELD_VALUE);
  if (at >= 0) {
    const char = String.fromCodePoint(value.codePointAt(at)!);
    throw new UsageError(`${what} holds ${quoteInput(char)} at position ${at + 1}, which an HTTP header cannot carry`, 'header values are printable text on one line, in Latin-1');
  }
  return value;
}

function tooLarge(parts: Part[], limit: string): UsageError {
  const largest = parts.reduce((a, b) => (b.size > a.size ? b : a));
  return new UsageError(`${largest.what} is too long to send: ${largest.quoted ?? quoteInput(largest.value, 40)} does not fit in ${limit}`, 'no valid value is that long: check what was passed');
}

function encodedLength(text: string): number {
  return new URLSearchParams([['', text]]).toString().length - 1;
}
