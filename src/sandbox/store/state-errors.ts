// What goes wrong with the state file: read at start (corrupt: the user's to fix) or written while serving (not
// saved: the request that changed the state is answered 503, never 2xx).
import { ConfigError } from '../../errors.js';

/** A usage error of the CLI (exit 2, one line and a hint), as a corrupt config store is. */
export class CorruptStateError extends ConfigError {
  readonly reason: string;

  constructor(
    readonly file: string,
    reason: string,
    hint = `move it away or delete it to start with fresh state (mv ${file} ${file}.bak)`,
  ) {
    // JSON.parse messages may span lines: the error stays one line.
    const oneLine = reason.split('\n')[0]!.trim();
    super(`the sandbox state file ${file} is corrupt (${oneLine}); it was left untouched`, hint);
    this.name = 'CorruptStateError';
    this.reason = oneLine;
  }
}

/** A change could not be put on the disk: what the request did is not acknowledged. */
export class StateNotSavedError extends Error {
  constructor(
    readonly file: string,
    readonly reason: Error,
  ) {
    super(`the sandbox could not save its state to ${file}: ${reason.message}`);
    this.name = 'StateNotSavedError';
  }
}
