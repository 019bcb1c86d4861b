// Text from outside (API records, files, webhook bodies, the user's own arguments) reaches a terminal only
// through here: control characters could otherwise retitle the window, clear the screen or hide what follows.

// C0 controls, DEL and C1 controls (0x9b alone is a full CSI introducer on many terminals), plus the
// bidirectional overrides and isolates that can make a line read differently from what it holds.
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
// A lone surrogate cannot be printed and breaks UTF-8 encoding downstream.
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

export interface SafeTextOptions {
  /** Keep line feeds (multi-line messages). Carriage returns are always shown, since they overwrite a line. */
  newlines?: boolean;
  /** Keep tabs (messages); cells and quoted input show them. */
  tabs?: boolean;
}

/** Every control character shown as a visible escape (`\x1b`, `\u202e`): harmless, and still readable. */
export function safeText(text: string, opts: SafeTextOptions = {}): string {
  return text
    .replace(CONTROL, (char) => {
      if ((char === '\n' && opts.newlines) || (char === '\t' && opts.tabs)) return char;
      const code = char.charCodeAt(0);
      return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
    })
    .replace(LONE_SURROGATE, (char) => `\\u${char.charCodeAt(0).toString(16)}`);
}

/** True when the text holds anything safeText would change. */
export function hasControlCharacters(text: string): boolean {
  CONTROL.lastIndex = 0;
  LONE_SURROGATE.lastIndex = 0;
  return CONTROL.test(text) || LONE_SURROGATE.test(text);
}

/** Text cut to at most `maxLength` characters (code units), saying how long it was; for lines, not quotes. */
export function cutText(text: string, maxLength: number): string {
  if (text.length <= maxLength) return text;
  const said = `… (${text.length} characters)`;
  return `${text.slice(0, Math.max(0, maxLength - said.length))}${said}`;
}

/**
 * The user's own input quoted back in a message: made visible, and cut so that a 5 MB argument does not flood
 * the terminal. The cut falls between characters, never inside a surrogate pair.
 */
export function quoteInput(text: string, maxLength = 80): string {
  // only the start is escaped and shown: a 5 MB argument is not processed whole
  const head = text.length > maxLength * 2 ? text.slice(0, maxLength * 2) : text;
  const chars = Array.from(safeText(head));
  // input that quotes with double quotes (a --where value with spaces) is quoted with single ones, as a shell line
  // would: "fleet:"North 1"" reads as two quoted words, 'fleet:"North 1"' as the one that was typed
  const mark = chars.includes('"') && !chars.includes("'") ? "'" : '"';
  if (head === text && chars.length <= maxLength) return `${mark}${chars.join('')}${mark}`;
  return `${mark}${chars.slice(0, maxLength - 1).join('')}… (${codePoints(text)} characters)${mark}`;
}

function codePoints(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    // the second half of a surrogate pair does not count again
    if (!(unit >= 0xdc00 && unit <= 0xdfff && i > 0 && text.charCodeAt(i - 1) >= 0xd800 && text.charCodeAt(i - 1) <= 0xdbff)) count++;
  }
  return count;
}

// What JSON.stringify leaves raw but a terminal may act on: DEL, C1 controls (0x9b is a CSI), bidi controls.
const JSON_UNSAFE = /[\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** JSON for a terminal: the same value, with the characters JSON leaves raw but a terminal acts on escaped. */
export function terminalSafeJson(value: unknown, space?: number): string {
  return (JSON.stringify(value, null, space) ?? 'null').replace(JSON_UNSAFE, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
