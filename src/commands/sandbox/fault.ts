// `fleetctl sandbox fault add|list|clear`: targeted faults on a running sandbox (POST/GET/DELETE
// /_sandbox/faults): make matching API or token requests fail, wait, drop or arrive damaged.
import { Command, Option } from 'commander';
import type { Deps } from '../../factory.js';
import { UsageError } from '../../errors.js';
import { viewOf } from '../../output/columns.js';
import { quoteInput } from '../../shared/terminal-text.js';
import { describeVerb } from '../shared/help.js';
import { completeValues } from '../../completion/values.js';
import { callSandbox, type ControlDeps } from './control-client.js';
import { requireNumber, requireWholeNumber } from '../shared/validate.js';
import type { components } from '../../openapi/control.gen.js';

type FaultRuleInput = components['schemas']['FaultRuleInput'];
type FaultStatus = NonNullable<FaultRuleInput['respond']['status']>;
type FaultMethod = NonNullable<NonNullable<FaultRuleInput['match']>['method']>;

// spec: any 4xx the spec names, 500 and 503; flag choices, so the control document's enums are listed (checked
// against them by the compiler, and by test/commands/sandbox-fault.test.ts both ways)
export const FAULT_STATUSES = ['400', '401', '403', '404', '409', '412', '422', '429', '500', '503'] as const satisfies readonly `${FaultStatus}`[];
export const FAULT_METHODS = ['GET', 'PUT', 'POST', 'PATCH', 'DELETE'] as const satisfies readonly FaultMethod[];

/** The rule as POST /_sandbox/faults takes it (control document, FaultRuleInput), its match always given. */
export type FaultAddOptions = FaultRuleInput & { match: NonNullable<FaultRuleInput['match']> };

interface FaultAddFlags {
  operationId?: string;
  method?: FaultMethod;
  path?: string;
  hardwareId?: string;
  clientId?: string;
  status?: string;
  code?: string;
  retryAfter?: string;
  delay?: string;
  drop?: boolean;
  truncate?: boolean;
  malformed?: boolean;
  probability?: string;
  times?: string;
  description?: string;
}

type FaultDeps = Pick<Deps, 'settings' | 'transport' | 'output' | 'io'> & ControlDeps;

export function newSandboxFaultCommand(deps: FaultDeps, runs = { add: faultAddRun, list: faultListRun, clear: faultClearRun }): Command {
  const fault = new Command('fault').description('Make chosen requests to a running sandbox fail, wait, drop or arrive damaged (targeted faults)');
  describeVerb(fault, {
    output: 'nothing',
    uses: ['profile', 'endpoints', 'timeout', 'debug'],
    notes: 'Calls /_sandbox/faults on the sandbox that --base-url or FLEETCTL_BASE_URL names. Rules are tried in the order they\nwere added; the first that matches answers. Start a sandbox with rules in effect: fleetctl sandbox --fault FILE.',
    examples: [{ comment: 'the rules in effect', command: 'fleetctl sandbox fault list' }],
  });

  const add = new Command('add')
    .description('Add a fault rule: every match option given must hold; answer with --status, --drop, --truncate, --malformed and/or --delay')
    .option('--operation-id <id>', 'match an operation of the API (`fleetctl api --list`), or requestToken for the token endpoint')
    .addOption(new Option('--method <method>', 'match the HTTP method').choices(FAULT_METHODS))
    .option('--path <pattern>', 'match the path; a segment * matches any one segment (/v1/devices/*/commands/reboot)')
    .option('--hardware-id <id>', 'match requests about this device')
    .option('--client-id <id>', 'match requests of this client')
    .addOption(new Option('--status <status>', 'answer with this error (problem+json), nothing carried out').choices(FAULT_STATUSES))
    .option('--code <code>', 'the problem code of --status (default: the usual one, e.g. 503 service.unavailable)')
    .option('--retry-after <seconds>', 'Retry-After of a 429 or 503 (default 1)')
    .option('--delay <ms>', 'wait this long first (alone: then answer normally)')
    .option('--drop', 'close the connection, nothing carried out')
    .option('--truncate', 'carry the request out, then send half of the answer and close the connection')
    .option('--malformed', 'carry the request out, then answer with a body that is not valid JSON')
    .option('--probability <p>', 'share of the matching requests it applies to, above 0 up to 1 (default 1)')
    .option('--times <n>', 'apply this many times, then retire (default: no limit)')
    .option('--description <text>', 'a note shown by fault list');
  completeValues(add, { '--hardware-id': 'hardware-id' });
  describeVerb(add, {
    output: 'records',
    uses: ['profile', 'endpoints', 'timeout', 'debug'],
    examples: [
      { comment: "the next two reboots of HW-000003 by ci-bot fail with 503, then they succeed", command: 'fleetctl sandbox fault add --operation-id rebootDevice --hardware-id HW-000003 --client-id ci-bot --status 503 --times 2' },
      { comment: 'one in five device listings is rate limited for 2 s', command: 'fleetctl sandbox fault add --operation-id listDevices --status 429 --retry-after 2 --probability 0.2 --client-id ci-bot' },
      { comment: 'the next token request waits 1.5 s', command: 'fleetctl sandbox fault add --operation-id requestToken --delay 1500 --times 1' },
      { comment: 'add a rule, then remove just that one', command: 'id=$(fleetctl sandbox fault add --path "/v1/devices/*/last-position" --drop --client-id ci-bot --columns id -o csv | tail -n 1) && fleetctl sandbox fault clear "$id"' },
    ],
  });
  add.action(async (flags: FaultAddFlags) => runs.add(deps, faultAddOptions(flags)));

  const list = new Command('list').description('List the fault rules, with how many requests each has answered');
  describeVerb(list, { output: 'records', uses: ['profile', 'endpoints', 'timeout', 'debug'], examples: [{ comment: 'rules and their hits, as JSON', command: 'fleetctl sandbox fault list -o json' }] });
  list.action(async () => runs.list(deps));

  const clear = new Command('clear').description('Remove one fault rule (by id), or every rule').argument('[id]', 'the rule to remove (default: all of them)');
  describeVerb(clear, { output: 'nothing', uses: ['profile', 'endpoints', 'timeout', 'debug'], examples: [{ comment: 'no more faults', command: 'fleetctl sandbox fault clear' }] });
  clear.action(async (id: string | undefined) => runs.clear(deps, id === undefined ? undefined : ruleId(id)));

  return fault.addCommand(add).addCommand(list).addCommand(clear);
}

export function faultAddOptions(flags: FaultAddFlags): FaultAddOptions {
  const answers = (['status', 'drop', 'truncate', 'malformed'] as const).filter((k) => flags[k] !== undefined && flags[k] !== false);
  if (answers.length > 1) throw new UsageError(`give one of --status, --drop, --truncate or --malformed, not ${answers.map((a) => `--${a}`).join(' and ')}`);
  if (answers.length === 0 && flags.delay === undefined) throw new UsageError('say how the sandbox answers: --status, --drop, --truncate, --malformed or --delay');
  if (flags.status === undefined) {
    for (const [flag, value] of [['--code', flags.code], ['--retry-after', flags.retryAfter]] as const) {
      if (value !== undefined) throw new UsageError(`${flag} goes with --status`);
    }
  }
  // commander has held the flag to FAULT_STATUSES
  const status = flags.status === undefined ? undefined : (Number(flags.status) as FaultStatus);
  if (flags.retryAfter !== undefined && status !== 429 && status !== 503) throw new UsageError('--retry-after goes with --status 429 or 503');
  const match = {
    operation_id: flags.operationId, method: flags.method, path: flags.path, hardware_id: flags.hardwareId, client_id: flags.clientId,
  };
  const respond = {
    status,
    code: flags.code,
    retry_after: flags.retryAfter === undefined ? undefined : requireWholeNumber(flags.retryAfter, '--retry-after', 0, 86_400),
    delay_ms: flags.delay === undefined ? undefined : requireWholeNumber(flags.delay, '--delay', 0, 120_000),
    drop: flags.drop ? (true as const) : undefined,
    body: flags.truncate ? ('truncated' as const) : flags.malformed ? ('malformed' as const) : undefined,
  };
  return withoutUndefined({
    match: withoutUndefined(match),
    respond: withoutUndefined(respond),
    probability: flags.probability === undefined ? undefined : requireNumber(flags.probability, '--probability', 'a number above 0 and at most 1', (p) => p > 0 && p <= 1),
    times: flags.times === undefined ? undefined : requireWholeNumber(flags.times, '--times', 1, Number.MAX_SAFE_INTEGER),
    description: flags.description,
  });
}

export async function faultAddRun(deps: FaultDeps, rule: FaultAddOptions): Promise<void> {
  const answer = await callSandbox(deps, 'addFault', { body: rule });
  await deps.output().object(answer.body);
}

export async function faultListRun(deps: FaultDeps): Promise<void> {
  const answer = await callSandbox(deps, 'listFaults');
  const rules = answer.body ?? [];
  await deps.output().list(rules, viewOf('sandboxFault'));
  if (rules.length === 0) deps.io.info('No fault rules: every request is answered normally (add one with `fleetctl sandbox fault add`).');
}

export async function faultClearRun(deps: FaultDeps, id: string | undefined): Promise<void> {
  await (id === undefined ? callSandbox(deps, 'clearFaults') : callSandbox(deps, 'deleteFault', { path: { faultId: id } }));
  deps.io.info(id === undefined ? 'Every fault rule removed.' : `Fault rule ${id} removed.`);
}

/** Rule ids are what `fault add` and `fault list` print (f1, f2 ...): anything else names no rule. */
function ruleId(value: string): string {
  if (!/^f[0-9]{1,9}$/.test(value)) throw new UsageError(`no fault rule is called ${quoteInput(value)}`, 'rule ids look like f1: see `fleetctl sandbox fault list`');
  return value;
}

function withoutUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}
