// One error type per failure class, shared by the CLI and the sandbox (a leaf: it imports nothing); main.ts is
// the only place that turns them into exit codes.

export const ExitCode = {
  ok: 0,
  internal: 1,
  usage: 2,
  auth: 3,
  forbidden: 4,
  notFound: 5,
  conflict: 6,
  unprocessable: 7,
  rateLimited: 8,
  unavailable: 9,
  partialFailure: 10,
  waveAborted: 11,
  notBack: 12,
  thresholdBreached: 13,
  /** Set by bin/fleetctl.js (bin/supported-node.js) before the bundle loads: nothing in src/ returns it. */
  nodeUnsupported: 14,
  /** A write failed for want of space (ENOSPC) or quota (EDQUOT): not a bug, and not the permissions. */
  diskFull: 15,
  /** The terminal went away (SIGHUP: an SSH session dropped), 128 + 1 by the shell's convention. */
  hungUp: 129,
  interrupted: 130,
} as const;
export type ExitCodeValue = (typeof ExitCode)[keyof typeof ExitCode];

export abstract class FleetctlError extends Error {
  abstract readonly exitCode: ExitCodeValue;
  /** A second line that tells the user what to do next. */
  hint?: string;
  /**
   * Set by a list that printed items before this failure stopped a later page (requestFailure), when errors are
   * JSON (-o json): where to go on from, a member of the error's document, so a script has the cursor with it.
   */
  resume?: ResumePoint;

  constructor(message: string, hint?: string) {
    super(message);
    this.hint = hint;
  }
}

/** A class of failure: errors of one name, ending the command with one exit code. */
function failureClass(name: string, exitCode: ExitCodeValue) {
  return class extends FleetctlError {
    readonly exitCode = exitCode;
    override name = name;
  };
}

/** Bad flag, bad argument, refused confirmation, invalid input file. */
export class UsageError extends failureClass('UsageError', ExitCode.usage) {}

/**
 * The operator answered no to a confirmation: a choice, not a failure. Exit 2 as any refused confirmation (a script
 * can tell), but said as a plain line, not as an error.
 */
export class DeclinedError extends UsageError {
  override name = 'DeclinedError';
  /** What the operator is told: all they need to know is that nothing went out. */
  readonly said = 'Nothing sent.';
}

/** The local configuration store cannot be read or written. */
export class ConfigError extends failureClass('ConfigError', ExitCode.usage) {}

/** What was asked for does not exist: a selection that matched nothing, with no HTTP 404 behind it. */
export class NotFoundError extends failureClass('NotFoundError', ExitCode.notFound) {}

/** The token endpoint refused or failed, or credentials are missing. */
export class AuthError extends failureClass('AuthError', ExitCode.auth) {}

/** Timeout, refused or dropped connection, DNS failure: no HTTP answer at all. */
export class NetworkError extends failureClass('NetworkError', ExitCode.unavailable) {}

/** The service answered, but not with what the API promises (a list page without its envelope, say). */
export class InvalidResponseError extends failureClass('InvalidResponseError', ExitCode.unavailable) {
  constructor(message: string, hint = 'the service or a proxy in front of it answered something unexpected: try again later, or report it') {
    super(message, hint);
  }
}

/**
 * A request that failed, with an HTTP answer or none (a refused or dropped connection, a timeout, an answer that
 * is not what the API promises): a later page of a list may end so, and with errors as JSON the failure is then a
 * document that carries where to resume (main.ts reportError).
 */
export function isRequestFailure(error: unknown): error is ApiError | NetworkError | InvalidResponseError {
  return error instanceof ApiError || error instanceof NetworkError || error instanceof InvalidResponseError;
}

/**
 * A failure another fleetctl met and told this one (the token broker of the fleetctl that runs an extension): its
 * message, hint and exit code as they were there; a code fleetctl does not use for a failure stands as an internal one.
 */
export class RelayedError extends FleetctlError {
  override name = 'RelayedError';
  readonly exitCode: ExitCodeValue;

  constructor(message: string, exitCode: unknown, hint?: string) {
    super(message, hint);
    this.exitCode = exitCode !== ExitCode.ok && (Object.values(ExitCode) as unknown[]).includes(exitCode) ? (exitCode as ExitCodeValue) : ExitCode.internal;
  }
}

export class CancelledError extends failureClass('CancelledError', ExitCode.interrupted) {
  constructor(message = 'Interrupted') {
    super(message);
  }
}

/**
 * A file fleetctl writes (a journal, the config store, a cache, a lock, the embedded sandbox's state) could not be
 * written: the disk or the quota is full. One line naming the file; a bulk run under way also prints its resume line.
 */
export class DiskFullError extends failureClass('DiskFullError', ExitCode.diskFull) {
  constructor(
    readonly file: string,
    code = 'ENOSPC',
  ) {
    super(`cannot write ${file}: no space left on device (${code})`, 'free some space on its file system, or raise the quota');
  }
}

/** The DiskFullError a failed write of `file` stands for, or undefined when it failed for another reason. */
export function diskFullOf(error: unknown, file?: string): DiskFullError | undefined {
  if (error instanceof DiskFullError) return error;
  const failed = error as { code?: unknown; path?: unknown } | null;
  if (failed?.code !== 'ENOSPC' && failed?.code !== 'EDQUOT') return undefined;
  return new DiskFullError(file ?? (typeof failed.path === 'string' ? failed.path : 'a file'), failed.code);
}

/** Some items of a bulk operation failed; the command has already reported which. */
export class PartialFailureError extends failureClass('PartialFailureError', ExitCode.partialFailure) {}

/**
 * Every device of a bulk run lacks the command's capability by its record, so nothing was sent: exit 7, as when
 * the API refuses each one (422 device.capability_missing), but said as fleetctl's own finding, not an HTTP answer.
 */
export class CapabilityMissingError extends failureClass('CapabilityMissingError', ExitCode.unprocessable) {}

/** A run in waves stopped sending: --abort-if-failed was reached. It says how many were sent; --resume continues. */
export class WaveAbortedError extends failureClass('WaveAbortedError', ExitCode.waveAborted) {}

/** With --wait: some devices did not report again before --wait-timeout. */
export class NotBackError extends failureClass('NotBackError', ExitCode.notBack) {}

/** A `fleetctl status --fail-if` threshold was breached (or could not be judged): the report was printed first. */
export class ThresholdBreachedError extends failureClass('ThresholdBreachedError', ExitCode.thresholdBreached) {}

export interface ProblemDocument {
  type?: string;
  title?: string;
  status?: number;
  detail?: string;
  code?: string;
  [member: string]: unknown;
}

/** Where a list stopped by a failed page goes on: its cursor, and how many items were printed before. */
export interface ResumePoint {
  cursor: string;
  items_printed: number;
  /** What is left of --max-items, when it was given. */
  max_items?: number;
}

/** An HTTP error answer from the API, problem+json or not. */
export class ApiError extends FleetctlError {
  readonly status: number;
  readonly code: string | undefined;
  readonly title: string | undefined;
  readonly detail: string | undefined;
  /** Seconds to wait before retrying, from Retry-After. */
  readonly retryAfter: number | undefined;
  readonly problem: ProblemDocument | undefined;

  constructor(init: {
    status: number;
    problem?: ProblemDocument;
    message?: string;
    retryAfter?: number;
    hint?: string;
  }) {
    const { status, problem } = init;
    const text = (value: unknown) => (typeof value === 'string' && value.trim() !== '' ? value : undefined);
    super(init.message ?? text(problem?.detail) ?? text(problem?.title) ?? `HTTP ${status}`, init.hint);
    this.name = 'ApiError';
    this.status = status;
    this.problem = problem;
    this.code = typeof problem?.code === 'string' ? problem.code : undefined;
    this.title = text(problem?.title);
    this.detail = text(problem?.detail);
    this.retryAfter = init.retryAfter;
  }

  get exitCode(): ExitCodeValue {
    return exitCodeForStatus(this.status);
  }
}

const EXIT_CODE_OF_STATUS: Readonly<Record<number, ExitCodeValue>> = {
  401: ExitCode.auth,
  407: ExitCode.auth,
  403: ExitCode.forbidden,
  404: ExitCode.notFound,
  410: ExitCode.notFound,
  409: ExitCode.conflict,
  412: ExitCode.conflict,
  428: ExitCode.conflict,
  422: ExitCode.unprocessable,
  429: ExitCode.rateLimited,
  // the service gave up waiting for the request: a timeout, as when no answer comes
  408: ExitCode.unavailable,
};

/**
 * Every HTTP status the client can meet, by class: the statuses the API names have their own code, any other
 * 4xx is a request the service refused as it was sent (2), and anything else that is not a success (a 5xx, a
 * redirect that is not followed, an informational answer left over) is a service failure (9). Never 1: that is
 * kept for fleetctl's own bugs.
 */
export function exitCodeForStatus(status: number): ExitCodeValue {
  if (status >= 200 && status < 300) return ExitCode.ok;
  return EXIT_CODE_OF_STATUS[status] ?? (status >= 400 && status < 500 ? ExitCode.usage : ExitCode.unavailable);
}
