// A failure told to a program: under a machine format (-o json, --json, ndjson, yaml, csv; --jq when no person reads
// stderr: Output.errorsAsJson) every failure is one JSON document on stderr, whatever the class and whenever it
// came (a first page's refused connection as a later page's), so a script reads one shape. The service's problem
// is the document of an HTTP error answer; any other failure is its title and hint. A list stopped by a failed
// page adds where to resume (commands/shared/paging.ts). The exit code is main.ts's to decide, not this file's.
import { ApiError, type FleetctlError } from '../errors.js';
import { terminalSafeJson } from '../shared/terminal-text.js';
import { logsAsJson } from './log-lines.js';
import type { IOStreams } from './streams.js';

export interface ToldError {
  /** The line a JSON log (--log-format json) says it with. */
  message: string;
  document: Record<string, unknown>;
}

/** The document of a typed failure. */
export function errorDocument(error: FleetctlError): ToldError {
  const said = error instanceof ApiError ? (error.problem ?? { status: error.status, title: error.message }) : { title: error.message, ...(error.hint ? { hint: error.hint } : {}) };
  return { message: error.message, document: error.resume ? { ...said, resume: error.resume } : said };
}

/** The document of a failure fleetctl did not expect (a bug): said as its line says it. */
export function unexpectedErrorDocument(message: string, hint: string): ToldError {
  return { message, document: { title: message, hint } };
}

/** One line on stderr: the document, or with --log-format json a log line that carries it as its problem. */
export function writeErrorDocument(io: IOStreams, told: ToldError): void {
  if (logsAsJson(io.logFormat)) io.error(told.message, { problem: told.document });
  else io.err.write(`${terminalSafeJson(told.document)}\n`);
}
