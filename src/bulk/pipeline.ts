// The one pipeline of a device action, whatever its size: one device rebooted, a fleet woken in waves, a file of
// assignments. Given its targets, the task for one target and the run's settings, it writes the journal (when the
// run keeps one), paces the requests to the API's rate limit and retries them, sends wave by wave under the brake,
// follows accepted devices with --wait, and tells the caller of every step through its events. It prints nothing:
// the command layer renders what the events say (progress, results, summary) and decides what the end means.
import { setMaxListeners } from 'node:events';
import type { ApiClient } from '../api/client.js';
import type { Clock } from '../io/clock.js';
import { RatePacer } from '../api/rate-pacer.js';
import type { RetryPolicy } from '../shared/retry.js';
import type { DeviceCommandResult } from '../api/device-commands.js';
import type { Journal, JournalEntry, JournalHeader } from './journal.js';
import { DEFAULT_CONCURRENCY } from './concurrency.js';
import { Brake, type WavePlan } from './waves.js';
import { WaveSender, type TargetOutcome, type WavesDone } from './wave-run.js';
import type { WaitOutcome } from './return-watcher.js';
import { brakeFrom, journalWatching, stillWatched } from './wait-journal.js';
import { ledgerTargetOf } from '../ledger/entry.js';
import type { Ledger } from '../ledger/recorder.js';

/** Retries per request in a bulk run unless --max-retries says otherwise: 503s and drops are retried with the same key. */
export const BULK_MAX_RETRIES = 10;

/** Without --concurrency: 8 in flight at first, up to 64 while the API accepts them. */

/** A journal to start: where (--journal as given, else the config folder's by run id) and its header. */
export interface NewJournal {
  configDir: string;
  given: string | undefined;
  header: JournalHeader;
}

export interface PipelineSpec<O extends TargetOutcome> {
  /** The API client as configured: the pipeline paces it and makes the retries itself. */
  api: ApiClient;
  /** Retries per target at least (a bulk run: BULK_MAX_RETRIES unless --max-retries was given; one device: 0, the client's). */
  minRetries: number;
  clock: Clock;
  signal: AbortSignal;
  /** Every target of the run, in order (the waves are over them), and those still to send to. */
  targets: string[];
  pending: string[];
  /** A resumed run's journal, a new run's to start, or none (one device, a dry run). */
  journal?: Journal<O['result']> | NewJournal;
  /** One attempt for a target, with the paced client; never throws for an API or network failure (its outcome). */
  task: (api: ApiClient, hardwareId: string, signal: AbortSignal) => Promise<O>;
  succeeded: (result: O['result']) => boolean;
  /** Every attempt of the task carries the same Idempotency-Key: one that timed out is made again. */
  repeatable: boolean;
  /** --concurrency N; null: adaptive. */
  concurrency: number | null;
  plan: WavePlan;
  /** --wait: each accepted device is followed until its report time (`field`) is later than before its command. */
  wait?: { field: string; timeoutMs: number };
  /** The audit ledger, handed each target's end (none for a dry run: it changes nothing). */
  ledger?: Pick<Ledger, 'outcome'>;
}

export interface PipelineEvents<O extends TargetOutcome> {
  /** The journal is written, before anything is sent; `rewatched`: devices a resumed run follows again first. */
  started?(run: { journal?: Journal<O['result']>; rewatched: number; paced: ApiClient }): void | Promise<void>;
  /** A line for the operator: a journal replaced, a wave held. */
  say(line: string): void;
  wave?(index: number, count: number): void;
  /** A target's first try goes out. */
  sending?(hardwareId: string): void;
  /** A target's final answer; `followed`: --wait follows it now (what it sees comes with `waited`). */
  answered(outcome: O, followed: boolean): void;
  waited?(result: O['result'], outcome: WaitOutcome): void;
  /** The device's last-reported state has no report-time field to follow. */
  missingField?(hardwareId: string, field: string): void;
}

export async function runPipeline<O extends TargetOutcome>(spec: PipelineSpec<O>, events: PipelineEvents<O>): Promise<WavesDone> {
  // a new run's journal is started here (its config folder names where); a resumed run's is open already
  const journal = spec.journal === undefined || !('configDir' in spec.journal) ? spec.journal : await startJournal<O['result']>(spec.journal, events.say);
  // the wait lines and the brake speak of device commands: a run of another task has neither
  const commands = journal as Journal<DeviceCommandResult> | undefined;
  const rewatch = spec.wait ? stillWatched(commands?.results ?? new Map(), commands) : new Map<string, never>();
  const { api, retry } = pacedClient(spec.api, spec.clock, spec.minRetries);
  await events.started?.({ journal, rewatched: rewatch.size, paced: api });
  const concurrency = spec.concurrency === null ? DEFAULT_CONCURRENCY : { initial: spec.concurrency, max: spec.concurrency };
  // every request in flight listens to the signal (undici, Retry-After sleeps, the pacer)
  setMaxListeners(Math.max(64, concurrency.max * 8), spec.signal);
  const brake = spec.plan.threshold === undefined ? new Brake(undefined) : brakeFrom(spec.plan.threshold, commands?.results ?? new Map(), commands);
  const now = () => spec.clock.now();
  // the follower's code loads with --wait only (the journal's with a run that keeps one): one device sent without
  // --wait runs neither
  const watcher = spec.wait && new (await import('./return-watcher.js')).ReturnWatcher(api, {
    field: spec.wait.field,
    timeoutMs: spec.wait.timeoutMs,
    clock: spec.clock,
    signal: spec.signal,
    onMissingField: (id) => events.missingField?.(id, spec.wait!.field),
    onBefore: (id, before) => commands && journalWatching(commands, id, undefined, before, now()),
    onOutcome: (outcome) => {
      if (!outcome.back) brake.notBack(outcome.hardwareId);
      spec.ledger?.outcome({ ...ledgerTargetOf(results.get(outcome.hardwareId)!), wait: outcome.back ? 'back' : 'not_back' });
      journal?.appendWait({ type: 'wait', hardware_id: outcome.hardwareId, outcome: outcome.back ? 'back' : 'not_back', after_ms: outcome.afterMs, at: now().toISOString() });
      events.waited?.(results.get(outcome.hardwareId)!, outcome);
    },
  });
  const results = new Map<string, O['result']>(journal?.results);
  if (watcher) for (const [id, sent] of rewatch) watcher.watch(id, sent.acceptedAt, sent.before);
  const sender = new WaveSender<O>({
    api, retry, concurrency, targets: spec.targets, toSend: new Set(spec.pending), plan: spec.plan, brake,
    task: (id, signal) => spec.task(api, id, signal), succeeded: spec.succeeded, repeatable: spec.repeatable,
    watcher: watcher || undefined, reportField: spec.wait?.field, lastActivityAt: journal?.history.lastAt,
    signal: spec.signal, clock: spec.clock, say: events.say,
    onWave: (index) => events.wave?.(index, spec.plan.sizes.length),
    onSending: (id) => events.sending?.(id),
    onResult: (outcome, before) => {
      const { result } = outcome;
      results.set(result.hardware_id, result);
      journal?.append(result, now());
      spec.ledger?.outcome(ledgerTargetOf(result));
      const followed = Boolean(watcher) && spec.succeeded(result);
      if (followed && commands) journalWatching(commands, result.hardware_id, now(), before, now());
      events.answered(outcome, followed);
    },
  });
  try {
    // on the disk before the first request: a journal without this line is of a run that sent nothing
    if (spec.pending.length > 0) journal?.markSending(now());
    const done = await sender.send();
    await watcher?.drain();
    if (spec.signal.aborted) throw spec.signal.reason;
    if (done.aborted) journal?.appendBrake(done.aborted, now());
    return done;
  } catch (error) {
    watcher?.stop();
    throw error;
  }
}

/** A new run's journal, noted in the config folder when it is kept elsewhere (--journal). */
async function startJournal<R extends JournalEntry>(spec: NewJournal, say: (line: string) => void): Promise<Journal<R>> {
  const { Journal, journalPathOf, noteJournalElsewhere } = await import('./journal.js');
  const journal = await Journal.create<R>(journalPathOf(spec.configDir, spec.header.run_id, spec.given), spec.header, say);
  await noteJournalElsewhere(spec.configDir, spec.header.run_id, journal.file);
  return journal;
}

/**
 * The API client for the run, paced to the rate the API accepts; and the retries of the run, patient with 503s and
 * dropped connections. The runner makes them (a device waiting for its retry holds no request slot): the client
 * makes none.
 */
function pacedClient(api: ApiClient, clock: Clock, minRetries: number): { api: ApiClient; retry: RetryPolicy } {
  const pacer = new RatePacer(clock);
  const policy = api.retryPolicy;
  const paced = api.derive({
    retry: { ...policy, maxRetries: 0 },
    onRateLimited: (waitMs) => pacer.onRateLimited(waitMs),
    throttle: (signal) => pacer.acquire(signal),
  });
  return { api: paced, retry: { ...policy, maxRetries: Math.max(policy.maxRetries, minRetries) } };
}
