// --log-format json (or FLEETCTL_LOG_FORMAT=json): each message fleetctl writes to stderr becomes one JSON object on
// one line, for journald and log shippers: {"time", "level", "message", ...fields}. Text stays the default.
import { terminalSafeJson } from '../shared/terminal-text.js';

export const LOG_FORMATS = ['text', 'json'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

/** info: progress and results said to the person; hint: what to do next, after a warning or an error. */
export type LogLevel = 'info' | 'warn' | 'error' | 'hint';

/** Structured members of a message (an exit status, a count): members of its JSON object, never of its text. */
export type LogFields = Record<string, unknown>;

/** The members every line has: a field may not replace them. */
const RESERVED = new Set(['time', 'level', 'message']);

/** The format FLEETCTL_LOG_FORMAT names; text for anything else (the flag's choices are checked by commander). */
export function logFormatOf(value: string | undefined): LogFormat {
  const named = value?.trim().toLowerCase();
  return LOG_FORMATS.find((format) => format === named) ?? 'text';
}

/** Whether messages go out as JSON lines (a log format, not an output format: stdout's is the output layer's). */
export function logsAsJson(format: LogFormat): boolean {
  return format === LOG_FORMATS[1];
}

/** One line: the message as written (a trailing newline dropped), escaped as JSON (no control character survives). */
export function jsonLogLine(level: LogLevel, message: string, fields: LogFields | undefined, now: Date): string {
  const extra = Object.fromEntries(Object.entries(fields ?? {}).filter(([key, value]) => !RESERVED.has(key) && value !== undefined));
  return `${terminalSafeJson({ time: now.toISOString(), level, message: message.replace(/\n$/, ''), ...extra })}\n`;
}
