// `status --watch --checkpoint FILE`: what the watch knows after each whole round (the devices not reporting, the
// thresholds breached), so that a watch restarted after Ctrl-C, kill -9 or a reboot tells the changes since the
// last round it finished, and does not run --on-breach again for a breach it already ran it for. A kill loses only
// the round under way. fleetctl's own versioned JSON, replaced whole (io/atomic-file.ts) and flushed to disk:
//   {"format":"fleetctl status watch","version":1,"watching":{...},"devices":[["<id>","HW-000004","stale"]],"breached":["stale>5%"]}
// `watching` is what the watch counts (selection, stale-after, thresholds): a file of another watch is refused.
import { writeFileAtomically } from '../../io/atomic-file.js';
import { readCheckpointFile } from '../shared/checkpoint-file.js';
import { UsageError } from '../../errors.js';
import { quoteInput } from '../../shared/terminal-text.js';
import type { StatusOptions } from './report.js';
import type { RememberedDevice, WatchState } from './status-changes.js';
import type { WatchStateStore } from './watch.js';

const FORMAT = 'fleetctl status watch';
const VERSION = 1;
const FRESHNESS = new Set(['stale', 'never_reported', 'unknown']);

interface CheckpointFile {
  format: string;
  version: number;
  watching: Watching;
  devices: RememberedDevice[];
  breached: string[] | null;
}

type Watching = ReturnType<typeof watchingOf>;

function watchingOf(opts: StatusOptions) {
  return {
    fleet_id: opts.fleetId ?? null,
    organization_id: opts.organizationId ?? null,
    where: opts.where ?? null,
    stale_after_seconds: opts.staleAfterMs / 1000,
    thresholds: opts.thresholds.map((t) => t.expression),
  };
}

export class WatchCheckpoint implements WatchStateStore {
  private readonly watching: Watching;

  constructor(
    readonly file: string,
    opts: StatusOptions,
  ) {
    this.watching = watchingOf(opts);
  }

  /** What the last whole round knew, or undefined when there is no file yet (the first run). */
  async load(): Promise<WatchState | undefined> {
    const text = await readCheckpointFile(this.file);
    if (text === undefined) return undefined;
    const saved = this.parse(text);
    if (JSON.stringify(saved.watching) !== JSON.stringify(this.watching)) {
      throw new UsageError(`--checkpoint ${quoteInput(this.file)} is the checkpoint of another watch (${JSON.stringify(saved.watching)})`, 'give the same --fleet-id, --organization-id, --where, --stale-after and --fail-if, or a new file to start over');
    }
    return { devices: saved.devices, breached: saved.breached };
  }

  async save(state: WatchState): Promise<void> {
    const file: CheckpointFile = { format: FORMAT, version: VERSION, watching: this.watching, devices: state.devices, breached: state.breached };
    await writeFileAtomically(this.file, `${JSON.stringify(file)}\n`, { durable: true });
  }

  private parse(text: string): CheckpointFile {
    const damaged = (why: string) => new UsageError(`--checkpoint ${quoteInput(this.file)} is not a status watch checkpoint fleetctl can read (${why})`, 'give a new file to start over');
    let value: Partial<CheckpointFile>;
    try {
      value = JSON.parse(text) as Partial<CheckpointFile>;
    } catch {
      throw damaged('not JSON');
    }
    if (value?.format !== FORMAT) throw damaged(`format is not "${FORMAT}"`);
    if (value.version !== VERSION) throw damaged(`version ${String(value.version)}, this fleetctl reads ${VERSION}`);
    const deviceOk = (d: unknown) => Array.isArray(d) && typeof d[0] === 'string' && (d[1] === null || typeof d[1] === 'string') && FRESHNESS.has(d[2]);
    if (!Array.isArray(value.devices) || !value.devices.every(deviceOk)) throw damaged('devices');
    if (value.breached !== null && !(Array.isArray(value.breached) && value.breached.every((b) => typeof b === 'string'))) throw damaged('breached');
    if (typeof value.watching !== 'object' || value.watching === null) throw damaged('watching');
    return value as CheckpointFile;
  }
}
