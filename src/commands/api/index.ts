// `fleetctl api`: an authenticated call to any operation of the API document, for what has no named command.
import { Command } from 'commander';
import type { Deps } from '../../factory.js';
import { UsageError } from '../../errors.js';
import { API_USES, describeVerb } from '../shared/help.js';
import { collect } from '../shared/validate.js';
import { API_METHODS, apiRequestOptions, type RawApiFlags } from './request.js';
import { completeValues } from '../../completion/values.js';
import { apiListRun, apiRun } from './run.js';

type ApiDeps = Pick<Deps, 'api' | 'output' | 'io' | 'transport' | 'clock' | 'configDir' | 'settings' | 'globals' | 'signal' | 'ledger'>;

const FIRST_DRIVER = '$(fleetctl --sandbox drivers list --limit 1 --columns id -o csv | tail -n 1)';

export function newApiCommand(deps: ApiDeps, run = apiRun, listRun = apiListRun): Command {
  const command = new Command('api')
    .description('Call any API operation with the right token; prints the JSON answer')
    .argument('[method]', `HTTP method: GET, POST, PUT, PATCH or DELETE`)
    .argument('[path]', 'path below the base URL, with its query if any, e.g. /v1/vehicles?limit=5')
    .option('-f, --raw-field <key=value>', 'a string field: query parameter of GET/DELETE (and with --input), else a JSON body member; repeatable', collect)
    .option('-F, --field <key=value>', 'like -f, but true, false, null, numbers and JSON values are typed; repeatable', collect)
    .option('--input <file>', 'the JSON request body from a file (- for stdin)')
    .option('-H, --header <header>', "an extra request header 'Name: value'; repeatable", collect)
    .option('--paginate', 'GET only: follow next_cursor through every page and print the items')
    .option('--idempotency-key <key>', 'send Idempotency-Key (at most 200 characters) so a retried POST is replayed, not repeated')
    .option('--list', 'list the operations of the API document with the scope each needs')
    .option('--refresh', 'fetch the API document again instead of using the cached copy');
  completeValues(command, { method: { words: API_METHODS }, '--input': 'file' });
  describeVerb(command, {
    output: 'records',
    uses: API_USES,
    notes: [
      'The scope comes from the OpenAPI document the server serves at {base_url}/openapi/v1.json, cached for an',
      'hour in the config folder per base URL (loopback servers such as a sandbox are asked every time). When it',
      'cannot be fetched, a cached copy is used, else the document bundled with fleetctl, with a warning on stderr.',
      'A path the document does not describe exits with 2.',
      'The answer is printed as JSON unless -o says otherwise; errors exit with the usual codes.',
    ].join('\n'),
    examples: [
      { comment: 'a GET, printed as JSON', command: 'fleetctl api GET /v1/fleets' },
      { comment: 'every operation and its scope', command: 'fleetctl --sandbox api --list' },
      { comment: 'two vehicles (fields are the query of a GET)', command: 'fleetctl --sandbox api GET /v1/vehicles -f limit=2' },
      { comment: 'every organization of the tenant, one JSON line each', command: 'fleetctl --sandbox api GET /v1/organizations --paginate -o ndjson' },
      { comment: 'update a driver (fields are the JSON body of a PUT)', command: `fleetctl --sandbox api PUT /v1/drivers/${FIRST_DRIVER} -f status=inactive` },
      {
        comment: 'a replay-safe reboot',
        command: 'fleetctl --sandbox api POST /v1/devices/HW-000001/commands/reboot --idempotency-key deploy-42',
      },
    ],
  });
  command.action(async (method: string | undefined, path: string | undefined, flags: RawApiFlags) => {
    if (flags.list) {
      if (method !== undefined) throw new UsageError('--list takes no METHOD or PATH');
      return listRun(deps, { refresh: Boolean(flags.refresh) });
    }
    await run(deps, { request: apiRequestOptions(method, path, flags), refresh: Boolean(flags.refresh) });
  });
  return command;
}
