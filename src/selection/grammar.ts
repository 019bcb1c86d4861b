// The selection language's grammar: an expression of terms read and printed, nothing evaluated. Its form follows
// the search qualifiers operators already type elsewhere: space means AND, a leading `-` negates a term, a list of
// values after one qualifier means OR, and double quotes keep spaces, commas and operators inside a value.
//
//   expression := term ( spaces term )*
//   term       := [-] ( @NAME | KEYWORD | QUALIFIER:values )
//   values     := value ( , value )*
//   value      := [ > | >= | < | <= | ~ ] operand  |  operand..operand   (* for an open end: 2h..*, *..10)
//   operand    := bare text, or "quoted text" with \" and \\ inside
//
// What a qualifier means (fleet:, seen:, a record member) is decided by qualifiers.ts and evaluate.ts.
import { UsageError } from '../errors.js';
import { quoteInput } from '../shared/terminal-text.js';

export const KEYWORDS = ['never-reported', 'stale'] as const;
export type Keyword = (typeof KEYWORDS)[number];

export type Comparison =
  | { op: 'eq' | 'gt' | 'ge' | 'lt' | 'le' | 'contains'; operand: string }
  /** Both ends included; an open end (written *) is undefined. */
  | { op: 'range'; low?: string; high?: string };

export type Term =
  | { kind: 'qualifier'; negated: boolean; name: string; values: Comparison[] }
  | { kind: 'keyword'; negated: boolean; name: Keyword }
  /** @NAME as written: a saved selection, replaced by a group when it is looked up (saved.ts). */
  | { kind: 'saved'; negated: boolean; name: string }
  /** A saved selection looked up: its terms, printed back as @NAME. */
  | { kind: 'group'; negated: boolean; name: string; selection: Selection };

export interface Selection {
  terms: Term[];
}

/** The characters of one term, each marked when it came from inside quotes (a literal, never an operator). */
interface Chars {
  text: string[];
  quoted: boolean[];
}

const OPERATORS: readonly [string, 'ge' | 'le' | 'gt' | 'lt' | 'contains'][] = [['>=', 'ge'], ['<=', 'le'], ['>', 'gt'], ['<', 'lt'], ['~', 'contains']];
const SAVED_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;
const QUALIFIER_NAME = /^[^\s",@-][^\s",]*$/;

/** Reads an expression; `source` names where it came from (--where, a saved selection) in every error. */
export function parseSelection(expression: string, source: string): Selection {
  const terms = splitTerms(expression, source).map((chars) => parseTerm(chars, source));
  if (terms.length === 0) {
    throw new UsageError(`${source} is empty`, 'give at least one condition, e.g. seen:>2h or fleet:North (see fleetctl help select)');
  }
  return { terms };
}

/** The expression in its one canonical spelling: parseSelection(printSelection(s)) equals s. */
export function printSelection(selection: Selection): string {
  return selection.terms.map(printTerm).join(' ');
}

export function printTerm(term: Term): string {
  const sign = term.negated ? '-' : '';
  switch (term.kind) {
    case 'keyword':
      return `${sign}${term.name}`;
    case 'saved':
    case 'group':
      return `${sign}@${term.name}`;
    case 'qualifier':
      return `${sign}${term.name}:${term.values.map(printComparison).join(',')}`;
  }
}

function printComparison(value: Comparison): string {
  if (value.op === 'range') return `${value.low === undefined ? '*' : printOperand(value.low, true)}..${value.high === undefined ? '*' : printOperand(value.high, true)}`;
  const prefix = OPERATORS.find(([, op]) => op === value.op)?.[0] ?? '';
  return `${prefix}${printOperand(value.operand)}`;
}

/** Bare when reading it back gives the same text; otherwise quoted, with \ and " escaped. */
function printOperand(operand: string, rangeEnd = false): string {
  // beside a range's .., a dot at the operand's edge would be read as part of the separator
  const bare = operand !== '' && operand !== '*' && !/[\s",\\]|\.\./.test(operand) && !/^[<>~=]/.test(operand) && !(rangeEnd && /^\.|\.$/.test(operand));
  return bare ? operand : `"${operand.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
}

/** Splits on spaces outside quotes, keeping which characters were quoted. */
function splitTerms(expression: string, source: string): Chars[] {
  const terms: Chars[] = [];
  let current: Chars | undefined;
  let inQuotes = false;
  let openedAt = 0;
  const chars = Array.from(expression);
  for (let i = 0; i < chars.length; i++) {
    const char = chars[i]!;
    if (!inQuotes && /\s/.test(char)) {
      if (current) terms.push(current);
      current = undefined;
      continue;
    }
    current ??= { text: [], quoted: [] };
    if (char === '"') {
      inQuotes = !inQuotes;
      if (inQuotes) openedAt = current.text.length;
      // "" is an empty quoted operand: an empty quoted character keeps it, since a quoted nothing is still a value
      else if (current.text.length === openedAt) {
        current.text.push('');
        current.quoted.push(true);
      }
      continue;
    }
    if (inQuotes && char === '\\' && i + 1 < chars.length) {
      current.text.push(chars[++i]!);
      current.quoted.push(true);
      continue;
    }
    current.text.push(char);
    current.quoted.push(inQuotes);
  }
  if (inQuotes) throw new UsageError(`${source} has a quote that is not closed`, 'close it with " (write \\" for a quote inside a value)');
  if (current) terms.push(current);
  return terms;
}

function parseTerm(chars: Chars, source: string): Term {
  const written = chars.text.join('');
  let start = 0;
  const negated = chars.text[0] === '-' && !chars.quoted[0];
  if (negated) start = 1;
  const colon = indexOfBare(chars, ':', start);
  if (colon < 0) {
    const word = written.slice(start);
    const anyQuoted = chars.quoted.slice(start).some(Boolean);
    if (!anyQuoted && word.startsWith('@')) {
      const name = word.slice(1);
      if (!SAVED_NAME.test(name)) throw new UsageError(`${source}: ${quoteInput(written)} is not a saved selection's name`, 'names are letters, digits, . _ and -');
      return { kind: 'saved', negated, name };
    }
    if (!anyQuoted && (KEYWORDS as readonly string[]).includes(word)) return { kind: 'keyword', negated, name: word as Keyword };
    throw new UsageError(
      `${source}: ${quoteInput(written)} is not a condition`,
      `write QUALIFIER:VALUE (seen:>2h, fleet:North, firmware.version:~1.4), ${KEYWORDS.join(' or ')}, or @SAVED (see fleetctl help select)`,
    );
  }
  const name = chars.text.slice(start, colon).join('');
  if (chars.quoted.slice(start, colon).some(Boolean) || !QUALIFIER_NAME.test(name)) {
    throw new UsageError(`${source}: ${quoteInput(written)} names no qualifier before its colon`, 'write QUALIFIER:VALUE, e.g. seen:>2h');
  }
  const values = splitBare(sliceChars(chars, colon + 1), ',').map((value) => parseComparison(value, written, source));
  return { kind: 'qualifier', negated, name, values };
}

function parseComparison(value: Chars, written: string, source: string): Comparison {
  const range = indexOfBare(value, '.', 0, '..');
  if (range >= 0) {
    const low = operandOf(sliceChars(value, 0, range));
    const high = operandOf(sliceChars(value, range + 2));
    if (low === '' || high === '') throw missing(written, source);
    return { op: 'range', ...(low === undefined ? {} : { low }), ...(high === undefined ? {} : { high }) };
  }
  const text = value.text.join('');
  const operator = OPERATORS.find(([prefix]) => text.startsWith(prefix) && value.quoted.slice(0, prefix.length).every((q) => !q));
  const operand = sliceChars(value, operator?.[0].length ?? 0);
  if (operand.text.length === 0) throw missing(written, source);
  return { op: operator?.[1] ?? 'eq', operand: operand.text.join('') };
}

/** An end of a range: undefined for a bare *, the text otherwise ('' when nothing was written). */
function operandOf(chars: Chars): string | undefined {
  const text = chars.text.join('');
  return text === '*' && !chars.quoted[0] ? undefined : text;
}

function missing(written: string, source: string): UsageError {
  return new UsageError(`${source}: ${quoteInput(written)} has an empty value`, 'write a value after the colon and between commas; quote one that holds spaces ("North fleet")');
}

/** Where a bare (unquoted) occurrence of `token` starts, from `from` on; -1 when none. */
function indexOfBare(chars: Chars, first: string, from: number, token = first): number {
  for (let i = from; i + token.length <= chars.text.length; i++) {
    if (chars.text[i] !== first) continue;
    const slice = chars.text.slice(i, i + token.length).join('');
    if (slice === token && chars.quoted.slice(i, i + token.length).every((q) => !q)) return i;
  }
  return -1;
}

function splitBare(chars: Chars, separator: string): Chars[] {
  const parts: Chars[] = [];
  let from = 0;
  for (let at = indexOfBare(chars, separator, 0); at >= 0; at = indexOfBare(chars, separator, from)) {
    parts.push(sliceChars(chars, from, at));
    from = at + 1;
  }
  parts.push(sliceChars(chars, from));
  return parts;
}

function sliceChars(chars: Chars, start: number, end?: number): Chars {
  return { text: chars.text.slice(start, end), quoted: chars.quoted.slice(start, end) };
}
