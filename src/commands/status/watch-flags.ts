// `status --watch` and the flags that go with it, checked before any request: each refusal names the flag and
// what it needs.
import { UsageError } from '../../errors.js';
import { quoteInput } from '../../shared/terminal-text.js';
import { parseDuration } from '../shared/dates.js';

export interface WatchOptions {
  intervalMs: number;
  /** Run with the shell, the report as JSON on its stdin, each time the report goes into breach. */
  onBreach?: string;
  /** Exit 13 at the first breach (after --on-breach). */
  exitOnBreach: boolean;
  /** --checkpoint: the file that keeps what the watch knows between rounds. */
  checkpoint?: string;
}

export interface RawWatchFlags {
  watch?: string;
  onBreach?: string;
  exitOnBreach?: boolean;
  checkpoint?: string;
  failIf?: string[];
  list?: string;
}

/** Rounds closer than this would only load the service: the report lists every device. */
export const MIN_WATCH_INTERVAL_MS = 1000;

export function watchFrom(flags: RawWatchFlags): { watch?: WatchOptions } {
  if (flags.watch === undefined) {
    const stray = flags.onBreach !== undefined ? '--on-breach' : flags.exitOnBreach ? '--exit-on-breach' : flags.checkpoint !== undefined ? '--checkpoint' : undefined;
    if (stray) throw new UsageError(`${stray} only applies with --watch`, "for example: fleetctl status --watch 5m --fail-if 'stale>5%' --on-breach ./page-oncall.sh");
    return {};
  }
  const intervalMs = parseDuration(flags.watch, '--watch');
  if (intervalMs < MIN_WATCH_INTERVAL_MS) throw new UsageError(`--watch must be at least 1s, got ${quoteInput(flags.watch)}`);
  if (flags.list !== undefined) throw new UsageError('--watch follows the report, not a --list of devices: give one of them');
  const noThreshold = (flags.failIf ?? []).length === 0;
  if (noThreshold && (flags.onBreach !== undefined || flags.exitOnBreach)) {
    throw new UsageError(`${flags.onBreach !== undefined ? '--on-breach' : '--exit-on-breach'} needs a --fail-if threshold to be breached`, "for example: --fail-if 'stale>5%'");
  }
  if (flags.onBreach !== undefined && flags.onBreach.trim() === '') throw new UsageError('--on-breach needs a command');
  if (flags.checkpoint !== undefined && flags.checkpoint.trim() === '') throw new UsageError('--checkpoint needs a file name');
  return {
    watch: {
      intervalMs,
      exitOnBreach: Boolean(flags.exitOnBreach),
      ...(flags.onBreach === undefined ? {} : { onBreach: flags.onBreach }),
      ...(flags.checkpoint === undefined ? {} : { checkpoint: flags.checkpoint }),
    },
  };
}
