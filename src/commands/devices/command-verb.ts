// `devices reboot` and `devices wake-up`: the same verb for two commands, declared once.
import { Command } from 'commander';
import type { Deps } from '../../factory.js';
import { ApiError } from '../../errors.js';
import { confirmOrRequireYes } from '../../io/prompter.js';
import {
  checkIdempotencyKey,
  generateIdempotencyKey,
  isSuccess,
  missingCapability,
  sendDeviceCommand,
  type DeviceCommand,
} from '../../api/device-commands.js';
import { describeVerb } from '../shared/help.js';
import { requireNonEmpty } from '../shared/validate.js';
import { rephrase } from '../shared/api-errors.js';

export interface DeviceCommandVerb {
  command: DeviceCommand;
  /** The verb as typed: reboot, wake-up. */
  name: string;
  operationId: string;
  /** "Reboot", "Wake up". */
  label: string;
  summary: string;
}

export const REBOOT: DeviceCommandVerb = {
  command: 'reboot',
  name: 'reboot',
  operationId: 'rebootDevice',
  label: 'Reboot',
  summary: 'Reboot a device (replay-safe: always sent with an Idempotency-Key)',
};

export const WAKE_UP: DeviceCommandVerb = {
  command: 'wake_up',
  name: 'wake-up',
  operationId: 'wakeUpDevice',
  label: 'Wake up',
  summary: 'Wake up a device (replay-safe: always sent with an Idempotency-Key)',
};

export interface DeviceCommandOptions {
  hardwareId: string;
  /** Given with --idempotency-key; otherwise generated and printed. */
  idempotencyKey?: string;
  yes: boolean;
}

export type DeviceCommandDeps = Pick<Deps, 'api' | 'output' | 'io' | 'prompter' | 'signal'>;

interface RawFlags {
  idempotencyKey?: string;
  yes?: boolean;
}

export function newDeviceCommandVerb(
  deps: DeviceCommandDeps,
  verb: DeviceCommandVerb,
  run: (deps: DeviceCommandDeps, verb: DeviceCommandVerb, opts: DeviceCommandOptions) => Promise<void> = deviceCommandRun,
): Command {
  const command = new Command(verb.name)
    .description(verb.summary)
    .argument('<hardware-id>', 'hardware id of the device')
    .option('--idempotency-key <key>', 'replay-safety key, at most 200 characters (default: a generated one, printed)')
    .option('-y, --yes', 'do not ask for confirmation (required when not interactive)');
  describeVerb(command, {
    operationIds: [verb.operationId],
    examples: examplesFor(verb),
    notes: `Rerunning with the same --idempotency-key replays the first answer instead of sending the ${verb.command} again.`,
  });
  command.action(async (hardwareId: string, flags: RawFlags) => {
    await run(deps, verb, {
      hardwareId: requireNonEmpty(hardwareId, 'hardware id'),
      idempotencyKey: flags.idempotencyKey === undefined ? undefined : checkIdempotencyKey(flags.idempotencyKey),
      yes: Boolean(flags.yes),
    });
  });
  return command;
}

function examplesFor(verb: DeviceCommandVerb) {
  const capable = `$(fleetctl --sandbox devices list --all -o ndjson | grep -m1 '"${verb.command}"' | sed 's/.*"hardware_id":"\\([^"]*\\)".*/\\1/')`;
  return [
    { comment: `${verb.label.toLowerCase()} a device that can, without a prompt`, command: `fleetctl --sandbox devices ${verb.name} ${capable} --yes` },
    {
      comment: 'replay-safe in CI: a rerun with the same key does not send it again',
      command: `fleetctl --sandbox devices ${verb.name} ${capable} --idempotency-key ci-job-42 --yes`,
    },
  ];
}

export async function deviceCommandRun(deps: DeviceCommandDeps, verb: DeviceCommandVerb, opts: DeviceCommandOptions): Promise<void> {
  await confirmOrRequireYes(deps, {
    yes: opts.yes,
    question: `${verb.label} device ${opts.hardwareId}?`,
    refusal: `${verb.label} of ${opts.hardwareId} not sent`,
  });
  const generated = opts.idempotencyKey === undefined;
  const key = opts.idempotencyKey ?? generateIdempotencyKey();
  const api = await deps.api();
  const outcome = await sendDeviceCommand(api, { hardwareId: opts.hardwareId, command: verb.command, idempotencyKey: key, signal: deps.signal });
  if (!isSuccess(outcome.result.status)) throw explain(outcome.error, verb, opts.hardwareId);
  await deps.output().object(outcome.response);
  const what = outcome.result.status === 'replayed' ? 'replayed (already sent earlier with this key; not sent again)' : 'accepted';
  deps.io.info(`${verb.label} of ${opts.hardwareId} ${what}.`);
  if (generated) deps.io.info(`Idempotency-Key: ${key} (to replay this call safely, pass --idempotency-key ${key})`);
}

/** A failure as the error to throw, saying which capability is missing when that is why. */
function explain(error: Error | undefined, verb: DeviceCommandVerb, hardwareId: string): Error {
  if (error instanceof ApiError && error.code === 'device.capability_missing') {
    const capability = missingCapability(error, verb.command);
    return rephrase(
      error,
      `device ${hardwareId} lacks the ${capability} capability`,
      `list the devices that can: fleetctl devices list --all -o ndjson | grep '"${capability}"'`,
    );
  }
  return error ?? new Error('the command failed');
}
