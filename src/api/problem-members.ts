// Which members of a request a problem document says failed, read in the shapes services commonly send, so the
// error line can name them: the spec leaves a problem's members beyond `code` unshown, and a 400 whose detail is
// only "One or more validation errors occurred." tells a person nothing they can fix. Read generically:
// - an object of member -> message or messages (`errors: {"employee_id": ["..."]}`, as ASP.NET Core sends);
// - a list of objects naming a member (member, field, parameter, param, name, property, pointer, path, or a `loc`
//   list) and a message (message, detail, reason, msg, description, title), or of bare messages
//   (`errors`, RFC 9457's example `invalid-params`, `invalid_params`, `violations`, or a `detail` that is a list).
// What is not one of these shapes is left to -o json, which prints the whole document.
import type { ProblemDocument } from '../errors.js';
import { cutText } from '../shared/terminal-text.js';

export interface MemberError {
  /** The member, parameter or pointer named; undefined for a message about no one member. */
  member?: string;
  message: string;
}

const LISTS = ['errors', 'invalid-params', 'invalid_params', 'violations', 'detail'] as const;
const MEMBER_KEYS = ['member', 'field', 'parameter', 'param', 'name', 'property', 'pointer', 'path'] as const;
const MESSAGE_KEYS = ['message', 'detail', 'reason', 'msg', 'description', 'title'] as const;

/** Entries shown on the error line at most; the rest are counted ("and 3 more"). */
export const MAX_MEMBER_ERRORS = 4;
const MAX_MEMBER = 40;
const MAX_MESSAGE = 120;

/** Every member error the problem carries, in the order it gives them; [] when it carries none fleetctl can read. */
export function memberErrors(problem: ProblemDocument | undefined): MemberError[] {
  if (!problem) return [];
  for (const key of LISTS) {
    const found = readList(problem[key]);
    if (found.length > 0) return found;
  }
  return [];
}

/** The member errors as one bounded clause, "a: must be x; b: is required; and 2 more", or undefined when none. */
export function describeMemberErrors(problem: ProblemDocument | undefined): string | undefined {
  const all = memberErrors(problem);
  if (all.length === 0) return undefined;
  const shown = all.slice(0, MAX_MEMBER_ERRORS).map(({ member, message }) => {
    const text = cutText(message, MAX_MESSAGE);
    return member === undefined ? text : `${cutText(member, MAX_MEMBER)}: ${text}`;
  });
  const rest = all.length - shown.length;
  return rest > 0 ? `${shown.join('; ')}; and ${rest} more` : shown.join('; ');
}

function readList(value: unknown): MemberError[] {
  if (Array.isArray(value)) return value.flatMap(readEntry);
  if (value === null || typeof value !== 'object') return [];
  // member -> message or messages
  return Object.entries(value as Record<string, unknown>).flatMap(([member, said]) =>
    messagesOf(said).map((message) => ({ member: member === '' ? undefined : member, message })),
  );
}

function readEntry(entry: unknown): MemberError[] {
  if (typeof entry === 'string') return entry.trim() === '' ? [] : [{ message: entry }];
  if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) return [];
  const fields = entry as Record<string, unknown>;
  const message = MESSAGE_KEYS.map((key) => fields[key]).find(isText);
  if (message === undefined) return [];
  return [{ member: memberOf(fields), message }];
}

function memberOf(fields: Record<string, unknown>): string | undefined {
  const named = MEMBER_KEYS.map((key) => fields[key]).find(isText);
  if (named !== undefined) return named;
  // a location as a list of steps: ["body", "employee_id"]
  const loc = fields.loc;
  if (Array.isArray(loc) && loc.length > 0 && loc.every((step) => typeof step === 'string' || typeof step === 'number')) return loc.join('.');
  return undefined;
}

function messagesOf(said: unknown): string[] {
  if (isText(said)) return [said];
  if (Array.isArray(said)) return said.filter(isText);
  if (said !== null && typeof said === 'object') {
    const message = MESSAGE_KEYS.map((key) => (said as Record<string, unknown>)[key]).find(isText);
    return message === undefined ? [] : [message];
  }
  return [];
}

function isText(value: unknown): value is string {
  return typeof value === 'string' && value.trim() !== '';
}
