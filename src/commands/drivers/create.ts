import { Command } from 'commander';
import type { Deps } from '../../factory.js';
import { recordedChange } from '../../ledger/recorder.js';
import { operationView } from '../../output/columns.js';
import { UsageError } from '../../errors.js';
import { headerValue } from '../../api/problem.js';
import type { RequestBody } from '../../openapi/operation-types.js';
import { describeVerb } from '../shared/help.js';
import { SANDBOX_IDS } from '../shared/sandbox-ids.js';
import { bodyMayCarry, bodyRules, checkBody, memberValueCheck, requiredBodyMembers, typedMemberValue, type BodyRules } from '../shared/request-checks.js';
import { pickFleet, pickOrganization } from '../shared/pickers.js';
import type { PickerDeps } from '../shared/pick-list.js';
import { records } from '../../records/resources.js';
import { addDriverFieldOptions, CREATE_FIELDS, driverBody, driverInputFrom, flagOf, type DriverBody, type RawDriverFlags } from './driver-fields.js';

export interface DriversCreateOptions {
  /** The create-driver command, complete and checked against the document in use. */
  body: DriverBody;
}

type DriversCreateDeps = Pick<Deps, 'api' | 'output' | 'io' | 'prompter' | 'settings' | 'signal' | 'servedDocument' | 'ledger'>;

const FIRST_FLEET = '$(fleetctl --sandbox fleets list --limit 1 --columns id -o csv | tail -n 1)';
const QUESTIONS: Record<string, string> = {
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
    notes: [
      'Required: what the service\'s document requires (fleetctl\'s own: --fleet-id, --first-name, --last-name and the organization,',
      '--organization-id or the profile\'s, else the fleet\'s). On a terminal, fleetctl asks for the ones missing (the fleet and the',
      'organization picked from lists); otherwise it names them and exits with 2.',
      'Members are checked against the service\'s own document (GET {base_url}/openapi/v1.json) before sending; a member it names',
      'that has no flag here goes in with --field name=value or --from-file.',
    ].join('\n'),
    examples: [
      { comment: 'a driver in a fleet of your organization', command: `fleetctl drivers create --fleet-id ${SANDBOX_IDS.fleetId} --first-name Ada --last-name Lovelace` },
      {
        comment: 'a member of the service\'s document that has no flag',
        command: `fleetctl drivers create --fleet-id ${SANDBOX_IDS.fleetId} --first-name Ada --last-name Lovelace --field employee_id=E-1815`,
      },
      {
        comment: 'the fields from JSON on stdin, the flags adding to them',
        command: `echo '{"first_name":"Grace","last_name":"Hopper","email":"grace@example.com"}' | fleetctl --sandbox drivers create --from-file - --fleet-id ${FIRST_FLEET} --json`,
      },
    ],
  });
  command.action(async (flags: RawDriverFlags) => {
    const input = await driverInputFrom(flags, CREATE_FIELDS, deps.io.in, deps.signal);
    const rules = await bodyRules(deps, 'POST', '/v1/drivers');
    const { body, origins } = driverBody(rules, input);
    // the profile's organization, for a service whose command takes one (and for one that declares none)
    if (body.organization_id === undefined && bodyMayCarry(rules, 'organization_id')) {
      const fallback = (await deps.settings()).organization_id.value;
      if (fallback) [body.organization_id, origins.organization_id] = [fallback, 'the profile\'s organization_id'];
    }
    await pickRequiredRecords(deps, rules, body, origins);
    await completeRequired(deps, rules, body, origins);
    await checkBody(rules, body, origins);
    await run(deps, { body });
  });
  return command;
}

/**
 * The fleet and the organization, when required and not given: the fleet picked from a list on a terminal, and the
 * organization the fleet's record names (a fleet belongs to one), else picked from a list. Never a free-text id.
 */
async function pickRequiredRecords(deps: PickerDeps, rules: BodyRules, body: DriverBody, origins: Record<string, string>): Promise<void> {
  const required = requiredBodyMembers(rules);
  const wanted = (name: string) => required.includes(name) && body[name] === undefined;
  if (wanted('fleet_id') && deps.io.canPrompt()) [body.fleet_id, origins.fleet_id] = [await pickFleet(deps), 'the fleet picked'];
  if (!wanted('organization_id')) return;
  if (typeof body.fleet_id === 'string') {
    const api = await deps.api();
    const fleet = await api.call('getFleet', { pathParams: { id: body.fleet_id } });
    const organization = records.fleet.organizationOf(fleet.body);
    if (organization !== undefined) {
      [body.organization_id, origins.organization_id] = [organization, 'the organization of the fleet'];
      deps.io.info(`Organization: ${organization} (the fleet's).`);
      return;
    }
  }
  if (deps.io.canPrompt()) [body.organization_id, origins.organization_id] = [await pickOrganization(deps), 'the organization picked'];
}

/** Asks for the members the document requires and the body lacks, when it may prompt; otherwise names them all. */
async function completeRequired(deps: Pick<Deps, 'io' | 'prompter'>, rules: BodyRules, body: DriverBody, origins: Record<string, string>): Promise<void> {
  const missing = () => requiredBodyMembers(rules).filter((name) => body[name] === undefined);
  for (const name of deps.io.canPrompt() ? missing() : []) {
    const question = QUESTIONS[name] ?? name;
    const check = await memberValueCheck(rules, name);
    const validate = (text: string) => {
      const issue = check(typedMemberValue(text, rules, name));
      return issue ? `${question} ${issue.reason}` : (true as const);
    };
    body[name] = typedMemberValue(await deps.prompter.input(question, { validate }), rules, name);
    origins[name] = question;
  }
  const left = missing();
  if (left.length === 0) return;
  throw new UsageError(
    `missing required field${left.length > 1 ? 's' : ''}: ${left.map(flagOf).join(', ')}`,
    'pass them as flags, with --field or in --from-file (run in a terminal to be asked for them)',
  );
}

export async function driversCreateRun(deps: Pick<Deps, 'api' | 'output' | 'io' | 'ledger'>, opts: DriversCreateOptions): Promise<void> {
  const api = await deps.api();
  // checked against the service's document, which may name members fleetctl's own types do not know
  const change = { command: 'drivers create', target: '(new driver)', outcome: 'created', targetIn: (answer: { body: unknown }) => records.driver.idOf(answer.body) };
  const answer = await recordedChange(deps.ledger(), change, () => api.call('createDriver', { body: opts.body as RequestBody<'createDriver'> }));
  await deps.output().object(answer.body, operationView('createDriver'));
  const location = headerValue(answer.headers.location);
  if (location) deps.io.info(`Location: ${location}`);
}
