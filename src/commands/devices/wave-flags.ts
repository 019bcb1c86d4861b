// The flags of a reboot or wake-up in waves with a brake, and of --wait: declared once for both verbs, checked
// before anything is read or sent. The mechanisms are the bulk engine's (bulk/waves.ts, bulk/return-watcher.ts).
import { Option, type Command } from 'commander';
import { UsageError } from '../../errors.js';
import { parseDuration } from '../shared/dates.js';
import { requireNonEmpty } from '../shared/validate.js';
import { parseAmount, type WaveOptions } from '../../bulk/waves.js';
import { DEFAULT_WAIT_TIMEOUT_MS } from '../../bulk/run-settings.js';

export interface WaitFlags {
  /** --wait-timeout; absent: DEFAULT_WAIT_TIMEOUT_MS, or on --resume the journal's. */
  timeoutMs?: number;
  reportTimeField?: string;
}

export { DEFAULT_WAIT_TIMEOUT_MS };
/** A wait or pause longer than a day is a typo. */
const MAX_WAIT_MS = 86_400_000;

/** The flags as commander gives them. */
export interface WaveFlags {
  canary?: string;
  canaryWait?: string;
  wave?: string;
  wavePause?: string;
  abortIfFailed?: string;
  wait?: boolean;
  waitTimeout?: string;
  reportTimeField?: string;
}

export function addWaveOptions(command: Command): void {
  command
    .addOption(new Option('--canary <n|p%>', 'send to this many devices first (a number, or a share such as 5%), then pause'))
    .addOption(new Option('--canary-wait <duration>', 'pause after the canary, such as 30s or 5m (with --wait: until the canary is back)'))
    .addOption(new Option('--wave <n|p%>', 'then send in waves of this size (default: all the rest at once); with --wait each once the one before is back'))
    .addOption(new Option('--wave-pause <duration>', 'hold this long between waves, such as 30s or 5m (with --wait: once the wave before is back)'))
    .addOption(new Option('--abort-if-failed <n|p%>', 'stop sending once this many of the devices sent so far failed (with --wait: or are not back); exit 11'))
    .addOption(new Option('--wait', 'after each command is accepted, wait until the device reports again (exit 12 if some do not)'))
    .addOption(new Option('--wait-timeout <duration>', 'with --wait: how long to wait for each device (default 10m)'))
    .addOption(new Option('--report-time-field <name>', "with --wait: the last-reported state's field that says when it reported (default: from the service's API document)"));
}

export function waveOptionsFrom(flags: WaveFlags): WaveOptions {
  if (flags.canaryWait !== undefined && flags.canary === undefined) throw new UsageError('--canary-wait needs --canary N: it is the pause after the canary');
  if (flags.canaryWait !== undefined && flags.wait) {
    throw new UsageError('give --canary-wait or --wait, not both', 'with --wait the canary is followed until it is back, then the waves go out');
  }
  return {
    ...(flags.canary === undefined ? {} : { canary: parseAmount(flags.canary, '--canary') }),
    ...(flags.canaryWait === undefined ? {} : { canaryWaitMs: parseDuration(flags.canaryWait, '--canary-wait', MAX_WAIT_MS) }),
    ...(flags.wave === undefined ? {} : { wave: parseAmount(flags.wave, '--wave') }),
    ...(flags.wavePause === undefined ? {} : { wavePauseMs: parseDuration(flags.wavePause, '--wave-pause', MAX_WAIT_MS) }),
    ...(flags.abortIfFailed === undefined ? {} : { abortIfFailed: parseAmount(flags.abortIfFailed, '--abort-if-failed') }),
  };
}

export function waitFrom(flags: WaveFlags): WaitFlags | undefined {
  if (!flags.wait) {
    const stray = flags.waitTimeout !== undefined ? '--wait-timeout' : flags.reportTimeField !== undefined ? '--report-time-field' : undefined;
    if (stray) throw new UsageError(`${stray} goes with --wait`, `add --wait to follow the devices until they report again`);
    return undefined;
  }
  const timeoutMs = flags.waitTimeout === undefined ? undefined : parseDuration(flags.waitTimeout, '--wait-timeout', MAX_WAIT_MS);
  const field = flags.reportTimeField === undefined ? undefined : requireNonEmpty(flags.reportTimeField, '--report-time-field', 200);
  return { ...(timeoutMs === undefined ? {} : { timeoutMs }), ...(field === undefined ? {} : { reportTimeField: field }) };
}
