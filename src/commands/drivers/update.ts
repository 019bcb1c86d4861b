import { Command } from 'commander';
import type { Deps } from '../../factory.js';
import { recordedChange } from '../../ledger/recorder.js';
import { operationView } from '../../output/columns.js';
import { UsageError } from '../../errors.js';
import { describeVerb } from '../shared/help.js';
import { SANDBOX_IDS } from '../shared/sandbox-ids.js';
import { requireUuid } from '../shared/validate.js';
import { declarePickers, pickable } from '../shared/pick-list.js';
import { pickDriver, uuidArgument } from '../shared/pickers.js';
import type { RequestBody } from '../../openapi/operation-types.js';
import { bodyRules, checkBody } from '../shared/request-checks.js';
import { addDriverFieldOptions, driverBody, driverInputFrom, flagOf, UPDATE_FIELDS, type DriverBody, type RawDriverFlags } from './driver-fields.js';

export interface DriversUpdateOptions {
  id: string;
  /** The update-driver command: at least one member, each checked. */
  body: DriverBody;
}

type DriversUpdateDeps = Pick<Deps, 'api' | 'output' | 'io' | 'prompter' | 'signal' | 'servedDocument' | 'ledger'>;

const FIRST_DRIVER = '$(fleetctl --sandbox drivers list --limit 1 --columns id -o csv | tail -n 1)';

export function newDriversUpdateCommand(deps: DriversUpdateDeps, run = driversUpdateRun): Command {
  const command = new Command('update').description('Change attributes of a driver; prints the updated driver').argument('[id]', pickable('driver id (uuid)'));
  addDriverFieldOptions(command, UPDATE_FIELDS, true);
  declarePickers(command, { id: pickDriver });
  describeVerb(command, {
    operationIds: ['updateDriver'],
    shows: operationView('updateDriver'),
    output: 'records',
    notes: 'Give at least one field. Fields not given stay as they are. Members are checked against the service\'s own document\n(GET {base_url}/openapi/v1.json) before sending; one it names that has no flag here goes in with --field name=value or --from-file.',
    examples: [
      { comment: 'mark a driver inactive', command: `fleetctl drivers update ${SANDBOX_IDS.driverId} --status inactive` },
      { comment: 'change the phone number and clear the email', command: `fleetctl --sandbox drivers update ${FIRST_DRIVER} --phone '+1 555 0100' --email ''` },
      { comment: 'the changes from JSON on stdin', command: `echo '{"employee_id":"E-42"}' | fleetctl --sandbox drivers update ${FIRST_DRIVER} --from-file -` },
    ],
  });
  command.action(async (id: string | undefined, flags: RawDriverFlags) => {
    if (id !== undefined) requireUuid(id, 'driver id');
    const input = await driverInputFrom(flags, UPDATE_FIELDS, deps.io.in, deps.signal);
    if (input.members.size === 0) {
      throw new UsageError('nothing to update: give at least one field', `fields: ${UPDATE_FIELDS.map(flagOf).join(', ')}, --field name=value, or --from-file`);
    }
    const rules = await bodyRules(deps, 'PUT', '/v1/drivers/{id}');
    const { body, origins } = driverBody(rules, input);
    await checkBody(rules, body, origins);
    await run(deps, { id: await uuidArgument(deps, id, 'id', 'driver id', pickDriver), body });
  });
  return command;
}

export async function driversUpdateRun(deps: DriversUpdateDeps, opts: DriversUpdateOptions): Promise<void> {
  const api = await deps.api();
  // checked against the service's document, which may name members fleetctl's own types do not know
  const answer = await recordedChange(deps.ledger(), { command: 'drivers update', target: opts.id, outcome: 'updated' }, () =>
    api.call('updateDriver', { pathParams: { id: opts.id }, body: opts.body as RequestBody<'updateDriver'> }),
  );
  await deps.output().object(answer.body, operationView('updateDriver'));
}
