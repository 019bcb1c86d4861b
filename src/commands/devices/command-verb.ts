// `devices reboot` and `devices wake-up`: the same verb for two commands, declared once (the verbs themselves and
// the run to one device: device-command.ts).
import type { WhereDeps } from '../shared/where.js';
import { Command } from 'commander';
import { UsageError } from '../../errors.js';
import { checkIdempotencyKey } from '../../api/device-commands.js';
import { describeVerb } from '../shared/help.js';
import { completeValues } from '../../completion/values.js';
import { SANDBOX_IDS } from '../shared/sandbox-ids.js';
import { optionalUuid, requireNonEmpty, requireWholeNumber } from '../shared/validate.js';
import { requireHardwareId } from '../../shared/hardware-id.js';
import type { BulkCommandOptions, BulkDeps } from '../../bulk/run.js';
import { RUN_ID_PATTERN } from '../../bulk/keys.js';
import { DEFAULT_OUTCOMES, parseOutcomes, RUN_OUTCOMES, type FromRun } from '../../bulk/from-run.js';
import { quoteInput } from '../../shared/terminal-text.js';
import { hasWaves } from '../../bulk/waves.js';
import { addWaveOptions, waitFrom, waveOptionsFrom, type WaveFlags } from './wave-flags.js';
import { deviceCommandRun, type DeviceCommandDeps, type DeviceCommandOptions, type DeviceCommandVerb } from './device-command.js';

export type DeviceCommandVerbDeps = DeviceCommandDeps & BulkDeps & WhereDeps;

/** One device named alone: the key is used as given. Anything else is a bulk run. */
export type DeviceCommandInvocation = ({ mode: 'single' } & DeviceCommandOptions) | ({ mode: 'bulk' } & BulkCommandOptions);

interface RawFlags extends WaveFlags {
  idempotencyKey?: string;
  yes?: boolean;
  fromFile?: string;
  fleetId?: string;
  organizationId?: string;
  dryRun?: boolean;
  maxDevices?: string;
  concurrency?: string;
  journal?: string;
  resume?: string;
  allowEmpty?: boolean;
  fromRun?: string;
  only?: string;
  where?: string;
}

export function newDeviceCommandVerb(
  deps: DeviceCommandVerbDeps,
  verb: DeviceCommandVerb,
  run: (deps: DeviceCommandVerbDeps, verb: DeviceCommandVerb, invocation: DeviceCommandInvocation) => Promise<void> = runDeviceCommandVerb,
): Command {
  const command = new Command(verb.name)
    .description(verb.summary)
    .argument('[hardware-ids...]', 'hardware ids of the devices')
    .option('--idempotency-key <key>', 'replay-safety key, at most 200 characters; with several devices, the base of each device key (default: generated and printed)')
    .option('-y, --yes', 'do not ask for confirmation (required when not interactive, and above --max-devices)')
    .option('--from-file <file>', 'hardware ids, one a line (- for stdin; blank lines and # comments ignored)')
    .option('--fleet-id <uuid>', 'every device of this fleet')
    .option('--organization-id <uuid>', 'every device of this organization')
    .option('--where <expression>', 'the devices this condition selects, e.g. "fleet:North seen:>2h" (fleetctl help select); @NAME as a target is a saved one')
    .option('--allow-empty', 'a --fleet-id/--organization-id (or --from-run --only) that matches no device is not an error (exit 0, not 5)')
    .option('--dry-run', 'list what would be sent, and send nothing')
    .option('--max-devices <n>', 'above this many devices, --yes is required even on a terminal (default 100)')
    .option('--concurrency <n>', 'at most n requests in flight, 1 to 64 (default: from 8, more while the API accepts, fewer on 429)')
    .option('--journal <file>', 'where to record results (default: in the config directory, by run id)')
    .option('--resume <run-id>', 'finish an interrupted or aborted run: skips devices already done, replays the rest with the same keys')
    .option('--from-run <run-id>', 'a new run to the devices of an earlier reboot or wake-up, chosen by their outcome there (--only)')
    .option('--only <outcomes>', `with --from-run: the outcomes to take, comma-separated: ${RUN_OUTCOMES.join(', ')} (default failed)`);
  addWaveOptions(command);
  completeValues(command, {
    'hardware-ids': 'hardware-id',
    '--from-file': 'file',
    '--fleet-id': 'fleet-id',
    '--organization-id': 'organization-id',
    '--where': 'where',
    '--journal': 'file',
  });
  describeVerb(command, {
    operationIds: [verb.operationId, 'listDevices'],
    output: 'records',
    prompts: true,
    examples: examplesFor(verb),
    notes: [
      `Rerunning with the same --idempotency-key replays the first answers instead of sending the ${verb.command} again.`,
      'With several devices, each key is BASE:HARDWARE_ID (hashed when over 200 characters or not ASCII); results are journalled as they arrive,',
      'and an interrupted run is finished with --resume RUN_ID. Exit code: 0 all succeeded, 10 some failed, or the failure\'s own',
      'code when every device failed for the same reason.',
      'In waves: --canary sends to a few first, --wave the rest in waves; with --wait each wave goes once the one before is back,',
      '--wave-pause holds between waves (without either, waves only batch). --abort-if-failed, checked before each wave, stops',
      'the run (exit 11; --resume RUN_ID continues its plan). --wait follows each device until it reports a later time than',
      'before its command (exit 12 when some do not within --wait-timeout).',
      'Rerun what failed: --from-run RUN_ID --only failed,not_back sends again, as a new run with keys of its own, to the devices',
      'of an earlier run that ended so (outcomes as its results name them); every plan flag applies.',
    ].join('\n'),
  });
  command.action(async (hardwareIds: string[], flags: RawFlags) => {
    const invocation = invocationFrom(verb, hardwareIds, flags, deps.io.canPrompt());
    if (invocation.mode !== 'pick') return run(deps, verb, invocation);
    const { pickDevicesToAct } = await import('../shared/pick-selection.js');
    const picked = await pickDevicesToAct(deps, verb.command, verb.name);
    const chosen = invocationFrom(verb, picked.hardwareIds, flags, false) as DeviceCommandInvocation;
    // the list showed their capabilities: they are checked, not "named by hardware id"
    if (chosen.mode === 'bulk') chosen.source.known = picked.capabilities;
    return run(deps, verb, chosen);
  });
  return command;
}

/** With nothing named, a terminal picks the devices (once every flag is checked). */
function invocationFrom(verb: DeviceCommandVerb, hardwareIds: string[], flags: RawFlags, canPick: boolean): DeviceCommandInvocation | { mode: 'pick' } {
  // @NAME among the targets is a saved selection: it joins --where (both must hold)
  const saved = hardwareIds.filter((id) => id.startsWith('@'));
  const where = [flags.where === undefined ? undefined : requireNonEmpty(flags.where, '--where'), ...saved].filter((part): part is string => part !== undefined).join(' ') || undefined;
  const ids = hardwareIds.filter((id) => !id.startsWith('@')).map((id) => requireHardwareId(id, 'hardware id'));
  const key = flags.idempotencyKey === undefined ? undefined : checkIdempotencyKey(flags.idempotencyKey);
  const yes = Boolean(flags.yes);
  // every flag is checked, even those a single device does not use, before anything is sent
  const maxDevices = flags.maxDevices === undefined ? 100 : requireWholeNumber(flags.maxDevices, '--max-devices', 1);
  const concurrency = flags.concurrency === undefined ? undefined : requireWholeNumber(flags.concurrency, '--concurrency', 1, 64);
  const waves = waveOptionsFrom(flags);
  const wait = waitFrom(flags);
  // a canary, waves or a brake only make sense over several devices: they make it a run (journal, --resume)
  const fromRun = fromRunOf(flags, ids);
  const bulkOnly = flags.fromFile !== undefined || flags.fleetId !== undefined || flags.organizationId !== undefined || fromRun !== undefined || where !== undefined || hasWaves(waves);
  const runOnly = flags.resume !== undefined || flags.journal !== undefined;
  if (ids.length === 1 && !bulkOnly && !runOnly) {
    // --dry-run stays single: it must show the key the same command sends without it (K itself, not K:HW)
    const single = { mode: 'single', hardwareId: ids[0]!, idempotencyKey: key, yes, ...(wait ? { wait } : {}) } as const;
    return flags.dryRun ? { ...single, dryRun: true } : single;
  }
  if (ids.length === 0 && !bulkOnly && flags.resume === undefined) {
    if (canPick) return { mode: 'pick' };
    throw new UsageError(`name the devices to ${verb.name}: hardware ids, --from-file, --fleet-id, --organization-id or --where (or --resume RUN_ID)`);
  }
  if (flags.resume !== undefined && where !== undefined) throw new UsageError('--resume takes its devices from the journal, as the run resolved them: give no --where or @NAME');
  if (flags.resume !== undefined && !RUN_ID_PATTERN.test(flags.resume)) throw new UsageError(`--resume must be a run id such as 20240601T120000Z-3f9a1c, got ${quoteInput(flags.resume)}`);
  return {
    mode: 'bulk',
    source: {
      ids,
      fromFile: flags.fromFile === undefined ? undefined : requireNonEmpty(flags.fromFile, '--from-file'),
      fleetId: optionalUuid(flags.fleetId, '--fleet-id'),
      organizationId: optionalUuid(flags.organizationId, '--organization-id'),
      ...(fromRun ? { fromRun } : {}),
    },
    ...(where === undefined ? {} : { where }),
    keyBase: key,
    yes,
    dryRun: Boolean(flags.dryRun),
    maxDevices,
    concurrency,
    journal: flags.journal === undefined ? undefined : requireNonEmpty(flags.journal, '--journal'),
    resume: flags.resume,
    allowEmpty: flags.allowEmpty,
    waves,
    wait,
  };
}

/** --from-run RUN_ID [--only OUTCOMES]: a new run over an earlier one's devices, which are its only source. */
function fromRunOf(flags: RawFlags, ids: string[]): FromRun | undefined {
  if (flags.fromRun === undefined) {
    if (flags.only !== undefined) throw new UsageError('--only goes with --from-run RUN_ID', 'for example --from-run 20240601T120000Z-3f9a1c --only failed,not_back');
    return undefined;
  }
  if (!RUN_ID_PATTERN.test(flags.fromRun)) throw new UsageError(`--from-run must be a run id such as 20240601T120000Z-3f9a1c, got ${quoteInput(flags.fromRun)}`);
  if (flags.resume !== undefined) throw new UsageError('give --from-run or --resume, not both', '--resume finishes a run with its own keys; --from-run starts a new one over its devices');
  if (ids.length > 0 || flags.fromFile !== undefined || flags.fleetId !== undefined || flags.organizationId !== undefined || flags.where !== undefined) {
    throw new UsageError('--from-run takes its devices from the earlier run: give no hardware ids, --from-file or selection');
  }
  return { runId: flags.fromRun, only: flags.only === undefined ? DEFAULT_OUTCOMES : parseOutcomes(flags.only), allowEmpty: Boolean(flags.allowEmpty) };
}

function examplesFor(verb: DeviceCommandVerb) {
  // awk reads the whole list (no early exit), so the list command never writes into a closed pipe
  const capable = (n: number) =>
    `fleetctl --sandbox devices list --all --columns hardware_id,capabilities -o csv | awk -F, '/${verb.command}/ && n++ < ${n} {print $1}'`;
  const device = SANDBOX_IDS.hardwareId;
  return [
    { comment: `${verb.label.toLowerCase()} one device (asks first)`, command: `fleetctl devices ${verb.name} ${device}`, asks: true },
    { comment: 'without a prompt, as a script would', command: `fleetctl --sandbox devices ${verb.name} ${device} --yes` },
    { comment: 'replay-safe in CI: a rerun with the same key does not send it again', command: `fleetctl --sandbox devices ${verb.name} ${device} --idempotency-key ci-job-42 --yes` },
    {
      comment: 'several devices from stdin, one key per device derived from the CI job id',
      command: `${capable(3)} | fleetctl --sandbox devices ${verb.name} --from-file - --idempotency-key ci-job-42 --yes`,
    },
    {
      comment: 'the plan of a careful run over a fleet: 1 device first, then waves of 10%, stopping once 5% failed (nothing sent)',
      command: `fleetctl --sandbox devices ${verb.name} --fleet-id $(fleetctl --sandbox fleets list --limit 1 --columns id -o csv | tail -n 1) --canary 1 --wave 10% --abort-if-failed 5% --dry-run`,
    },
    ...(verb.command === 'wake_up'
      ? [{ comment: 'wake a device and wait until it reports again (exit 12 if it does not within --wait-timeout)', command: `fleetctl --sandbox devices wake-up ${device} --wait --wait-timeout 1m --yes` }]
      : []),
    {
      comment: `what a whole fleet would get, sending nothing (devices without the ${verb.command} capability are skipped)`,
      command: `fleetctl --sandbox devices ${verb.name} --fleet-id $(fleetctl --sandbox fleets list --limit 1 --columns id -o csv | tail -n 1) --dry-run`,
    },
  ];
}

export async function runDeviceCommandVerb(deps: DeviceCommandVerbDeps, verb: DeviceCommandVerb, invocation: DeviceCommandInvocation): Promise<void> {
  if (invocation.mode === 'single') {
    const { mode: _mode, ...opts } = invocation;
    return deviceCommandRun(deps, verb, opts);
  }
  const { mode: _mode, ...opts } = invocation;
  // the code of a run over many devices (its sources, --where, journal file, summary) is loaded only for such a
  // run: one device's request does not load what it never runs
  return (await import('./command-run.js')).bulkCommandRun(deps, verb, opts);
}
