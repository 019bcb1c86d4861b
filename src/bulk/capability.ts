// Which devices of a bulk run can take the command, as far as their records tell, and how that is announced.
// A device whose record clearly lacks the capability is skipped: the API would only refuse it (422
// device.capability_missing), and a fleet-wide reboot should not fail because some devices cannot reboot.
// The spec shows no member of a device record, so a guess must never withhold a command: only a list in the form
// fleetctl reads (records.device.capabilitiesOf) can skip a device; any other value, and devices named by hardware id
// (no record), are sent, and the API, the authority, decides.
import type { DeviceCommand } from '../api/device-commands.js';
import { CapabilityMissingError } from '../errors.js';
import type { Theme } from '../io/theme.js';
import { safeText } from '../shared/terminal-text.js';

export interface CapabilityCheck {
  /** Devices to send to: their record has the capability, or no record tells. */
  sendable: string[];
  /** Devices whose record clearly lacks the capability: not sent. */
  lacking: string[];
  /** How many of `sendable` were named by hardware id (no record): the API decides for them. */
  unchecked: number;
  /** How many of `sendable` have a record that does not say in a form fleetctl reads: the API decides for them too. */
  unstated: number;
}

export const NOTHING_CHECKED: CapabilityCheck = { sendable: [], lacking: [], unchecked: 0, unstated: 0 };

/** What the targets' records said (bulk/targets.ts ResolvedTargets): the lists read, and the devices whose record did not say. */
export interface TargetCapabilities {
  ids: readonly string[];
  capabilities: ReadonlyMap<string, readonly string[]>;
  unstated?: ReadonlySet<string>;
}

export function checkCapability(targets: TargetCapabilities, command: DeviceCommand): CapabilityCheck {
  const sendable: string[] = [];
  const lacking: string[] = [];
  let unchecked = 0;
  let unstated = 0;
  for (const id of targets.ids) {
    const capabilities = targets.capabilities.get(id);
    if (capabilities === undefined) {
      if (targets.unstated?.has(id)) unstated++;
      else unchecked++;
    }
    if (capabilities === undefined || capabilities.includes(command)) sendable.push(id);
    else lacking.push(id);
  }
  return { sendable, lacking, unchecked, unstated };
}

/** "HW-1, HW-2, HW-3, and 4 more": ids from files and records, made harmless for a terminal. */
export function sampleOf(ids: string[], size = 5): string {
  const shown = ids.slice(0, size).map((id) => safeText(id)).join(', ');
  return ids.length > size ? `${shown}, and ${ids.length - size} more` : shown;
}

/** A dry run, a question to the operator, or a run under way (--yes). */
export type Moment = 'dry-run' | 'asking' | 'running';

const FATE: Record<Moment, string> = { 'dry-run': 'would be skipped, not sent', asking: 'will be skipped, not sent', running: 'skipped, not sent' };

/**
 * Lines for stderr before a run: how many devices lack the capability and that they are skipped (the count in the
 * palette's capability_missing colour); when someone is deciding (a dry run, a question), for how many the API
 * decides.
 */
export function capabilityLines(theme: Theme, command: DeviceCommand, check: CapabilityCheck, moment: Moment): string[] {
  const lines: string[] = [];
  const total = check.sendable.length + check.lacking.length;
  if (check.lacking.length > 0) {
    const count = `${check.lacking.length} of the ${total} device${total === 1 ? '' : 's'} lack${check.lacking.length === 1 ? 's' : ''} the ${command} capability`;
    lines.push(`${theme.status('capability_missing', count)} by their records: ${FATE[moment]} (${sampleOf(check.lacking)}).`);
  }
  if (moment !== 'running' && check.unchecked > 0) {
    const n = check.unchecked;
    lines.push(
      `Capability not checked for ${n} device${n === 1 ? '' : 's'} named by hardware id: the API refuses ${n === 1 ? 'it if it lacks' : 'those that lack'} ` +
        `the ${command} capability, reported as capability missing (a failed device: exit 10).`,
    );
  }
  if (moment !== 'running' && check.unstated > 0) {
    const n = check.unstated;
    lines.push(
      `Capability not stated by the record${n === 1 ? '' : 's'} of ${n} device${n === 1 ? '' : 's'} in a form fleetctl reads: ${n === 1 ? 'it is' : 'they are'} sent, ` +
        `and the API refuses ${n === 1 ? 'it if it lacks' : 'those that lack'} the ${command} capability (capability missing, a failed device).`,
    );
  }
  return lines;
}

/** The line under a run's summary that names the devices skipped, in the style of the summary's own. */
export function skippedSummaryLine(theme: Theme, command: DeviceCommand, check: CapabilityCheck): string | undefined {
  if (check.lacking.length === 0) return undefined;
  return `  ${theme.status('skipped', `skipped, no ${command} capability by their records`)}: ${sampleOf(check.lacking, 20)}`;
}

/**
 * Every device of the run lacks the capability by its record: nothing is sent, and that is never a success (exit 7,
 * as a run whose every device the API refused for it).
 */
export function nothingSendableError(command: DeviceCommand, verb: string, check: CapabilityCheck): CapabilityMissingError {
  const n = check.lacking.length;
  return new CapabilityMissingError(
    `${verb} sent to none of the ${n} device${n === 1 ? '' : 's'}: ${n === 1 ? 'its record lacks' : 'each record lacks'} the ${command} capability (${sampleOf(check.lacking)})`,
    `list the devices that can with fleetctl devices list --all -o ndjson | grep '"${command}"'; a device named by hardware id is sent without this check (the API decides)`,
  );
}
