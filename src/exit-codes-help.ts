// The exit codes as `fleetctl --help` and the manual list them: each code is decided in main.ts (reportError) from
// the error types of errors.ts; test/exit-codes.test.ts checks this text against them.
export const EXIT_CODES_HELP = `Exit codes:
  0    success
  1    unexpected internal error (a bug in fleetctl: please report it)
  2    usage or invalid input (bad flag or argument, refused confirmation), or
       a request the API refused as sent: HTTP 400 and any other 4xx not named
       below (405, 413, 414, 415, 431 ...)
  3    authentication failed (HTTP 401, 407, the token issuer refused the
       client or scope)
  4    forbidden (HTTP 403: missing scope, organization outside your tenant)
  5    not found (HTTP 404, 410), a --fleet-id/--organization-id/--from-run
       selection that matches no device (unless --allow-empty), or a
       --dry-run naming a device the service does not know
  6    conflict (HTTP 409, 412, 428), or a lock another fleetctl holds past
       the wait (config store, embedded sandbox state, bulk run journal)
  7    unprocessable (HTTP 422)
  8    rate limited or quota exceeded (HTTP 429 after retries)
  9    service unavailable: HTTP 5xx, 408, a redirect fleetctl may not follow
       or any other status; timeout or network failure
  10   partial failure of a bulk operation
  11   a run in waves stopped by --abort-if-failed (--resume continues it)
  12   with --wait: some devices did not report again in time
  13   a fleetctl status --fail-if threshold was breached
  14   this Node.js version cannot run fleetctl (the line says which is needed)
  15   no space left on device (ENOSPC, EDQUOT) for a file fleetctl writes
       or for standard output: the line names it; a bulk run under way
       prints its resume line
  129  hung up (SIGHUP: the terminal or SSH session went away), stopped as
       cleanly as for SIGTERM
  130  interrupted (Ctrl-C, SIGTERM)`;
