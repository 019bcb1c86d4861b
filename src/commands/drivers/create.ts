import { Command } from 'commander';
import type { Deps } from '../../factory.js';
import { operationView } from '../../output/columns.js';
import { UsageError } from '../../errors.js';
import { headerValue } from '../../api/problem.js';
import { describeVerb } from '../shared/help.js';
import { SANDBOX_IDS } from '../shared/sandbox-ids.js';
import { addDriverFieldOptions, checkMember, CREATE_FIELDS, CREATE_REQUIRED, driverBodyFrom, flagOf, type DriverBody, type RawDriverFlags } from './driver-fields.js';

/** The create-driver command, complete and checked. */
type CreateBody = DriverBody & Record<(typeof CREATE_REQUIRED)[number], string>;

export interface DriversCreateOptions {
  body: CreateBody;
}

type DriversCreateDeps = Pick<Deps, 'api' | 'output' | 'io' | 'prompter' | 'settings' | 'signal'>;

const FIRST_FLEET = '$(fleetctl --sandbox fleets list --limit 1 --columns id -o csv | tail -n 1)';
const QUESTIONS: Record<string, string> = {
  organization_id: 'Organization id',
  fleet_id: 'Fleet id',
  first_name: 'First name',
  last_name: 'Last name',
};

export function newDriversCreateCommand(deps: DriversCreateDeps, run = driversCreateRun): Command {
  const command = new Command('create').description('Create a driver in a fleet; prints the driver, and its Location on stderr');
  addDriverFieldOptions(command, CREATE_FIELDS, false);
  describeVerb(command, {
    operationIds: ['createDriver'],
    shows: operationView('createDriver'),
    output: 'records',
    prompts: true,
    notes: 'Required: --fleet-id, --first-name, --last-name and the organization (--organization-id, or the profile\'s).\nOn a terminal, fleetctl asks for the ones missing; otherwise it names them and exits with 2.',
    examples: [
      { comment: 'a driver in a fleet of your organization', command: `fleetctl drivers create --fleet-id ${SANDBOX_IDS.fleetId} --first-name Ada --last-name Lovelace` },
      {
        comment: 'the fields from JSON on stdin, the flags adding to them',
        command: `echo '{"first_name":"Grace","last_name":"Hopper","email":"grace@example.com"}' | fleetctl --sandbox drivers create --from-file - --fleet-id ${FIRST_FLEET} --json`,
      },
    ],
  });
  command.action(async (flags: RawDriverFlags) => {
    const body = await driverBodyFrom(flags, CREATE_FIELDS, deps.io.in, deps.signal);
    if (body.organization_id === undefined) {
      const fallback = (await deps.settings()).organization_id.value;
      if (fallback) body.organization_id = checkMember('organization_id', fallback, 'the profile\'s organization_id');
    }
    await run(deps, { body: await completeRequired(deps, body) });
  });
  return command;
}

/** Asks for the required members still missing when it may prompt; otherwise names them all. */
async function completeRequired(deps: Pick<Deps, 'io' | 'prompter'>, body: DriverBody): Promise<CreateBody> {
  const complete = { ...body };
  for (const name of deps.io.canPrompt() ? missingMembers(complete) : []) {
    const validate = (value: string) => {
      try {
        checkMember(name, value, QUESTIONS[name]!);
        return true as const;
      } catch (error) {
        return (error as Error).message;
      }
    };
    complete[name] = checkMember(name, await deps.prompter.input(QUESTIONS[name]!, { validate }), flagOf(name));
  }
  assertComplete(complete);
  return complete;
}

function missingMembers(body: DriverBody): (typeof CREATE_REQUIRED)[number][] {
  return CREATE_REQUIRED.filter((name) => body[name] === undefined || body[name] === null);
}

function assertComplete(body: DriverBody): asserts body is CreateBody {
  const missing = missingMembers(body);
  if (missing.length === 0) return;
  throw new UsageError(
    `missing required field${missing.length > 1 ? 's' : ''}: ${missing.map(flagOf).join(', ')}`,
    'pass them as flags or in --from-file (run in a terminal to be asked for them)',
  );
}

export async function driversCreateRun(deps: Pick<Deps, 'api' | 'output' | 'io'>, opts: DriversCreateOptions): Promise<void> {
  const api = await deps.api();
  const answer = await api.call('createDriver', { body: opts.body });
  await deps.output().object(answer.body, operationView('createDriver'));
  const location = headerValue(answer.headers.location);
  if (location) deps.io.info(`Location: ${location}`);
}
