// The fields of the create- and update-driver commands. The flags are the members of fleetctl's own document
// (help is static); what is sent, and every check of it, follows the document of the service in use: its
// members (any of them through --field or --from-file), which it requires, and what each must be.
import type { Command } from 'commander';
import { UsageError } from '../../errors.js';
import { readJsonInput } from '../../io/read-input.js';
import { completeValues, type ValueCompletion } from '../../completion/values.js';
import { quoteInput } from '../../shared/terminal-text.js';
import { FIELD_OPTION, fieldTexts, typedMemberValue, type BodyRules } from '../shared/request-checks.js';
import { collect } from '../shared/validate.js';

interface DriverFlag {
  /** The JSON member of the command body, in fleetctl's document. */
  name: string;
  flag: string;
  /** commander's camelCase key of the flag. */
  key: string;
  help: string;
  placeholder: string;
  completion?: ValueCompletion;
}

const FLAGS: readonly DriverFlag[] = [
  { name: 'organization_id', flag: '--organization-id', key: 'organizationId', placeholder: 'uuid', help: 'organization of the driver (default: the profile\'s organization)', completion: 'organization-id' },
  { name: 'fleet_id', flag: '--fleet-id', key: 'fleetId', placeholder: 'uuid', help: 'fleet of the driver, a fleet of that organization', completion: 'fleet-id' },
  { name: 'first_name', flag: '--first-name', key: 'firstName', placeholder: 'text', help: 'first name' },
  { name: 'last_name', flag: '--last-name', key: 'lastName', placeholder: 'text', help: 'last name' },
  { name: 'email', flag: '--email', key: 'email', placeholder: 'text', help: 'email address' },
  { name: 'phone', flag: '--phone', key: 'phone', placeholder: 'text', help: 'phone number' },
  { name: 'license_number', flag: '--license-number', key: 'licenseNumber', placeholder: 'text', help: 'driving licence number' },
  { name: 'employee_id', flag: '--employee-id', key: 'employeeId', placeholder: 'text', help: 'employee id' },
  // completion suggests the statuses of fleetctl's document (DriverStatus); the service's document decides
  { name: 'status', flag: '--status', key: 'status', placeholder: 'status', help: 'driver status, such as active or inactive', completion: { words: ['active', 'inactive'] } },
];

/** Members of the create-driver command with a flag (fleetctl's document: CreateDriverCommand). */
export const CREATE_FIELDS = ['organization_id', 'fleet_id', 'first_name', 'last_name', 'email', 'phone', 'license_number', 'employee_id'] as const;
/** Members of the update-driver command with a flag (fleetctl's document: UpdateDriverCommand). */
export const UPDATE_FIELDS = ['first_name', 'last_name', 'email', 'phone', 'license_number', 'employee_id', 'fleet_id', 'status'] as const;
/** Members that "" clears (sends null) when the document lets them be null. */
const CLEARABLE = ['email', 'phone', 'license_number', 'employee_id'];

export type DriverBody = Record<string, unknown>;
export type RawDriverFlags = Record<string, string | undefined> & { fromFile?: string; field?: string[] };

/** The members given, before the document in use types and checks them. */
export interface DriverInput {
  /** Values from --from-file (JSON already) and as typed (flags, --field): `text` is typed by the document. */
  members: Map<string, { json?: unknown; text?: string; origin: string }>;
}

export function flagOf(name: string): string {
  return FLAGS.find((f) => f.name === name)?.flag ?? `--field ${name}=...`;
}

/** Adds one option per member, then --field and --from-file. */
export function addDriverFieldOptions(command: Command, members: readonly string[], clearable: boolean): Command {
  for (const name of members) {
    const f = FLAGS.find((flag) => flag.name === name)!;
    const clear = clearable && CLEARABLE.includes(name) ? '; "" clears it' : '';
    command.option(`${f.flag} <${f.placeholder}>`, `${f.help}${clear}`);
    if (f.completion) completeValues(command, { [f.flag]: f.completion });
  }
  command.option(...FIELD_OPTION, collect);
  command.option('--from-file <file>', 'read the members from a JSON file (- for stdin); flags and --field override them');
  return completeValues(command, { '--from-file': 'file' });
}

/** The members from --from-file (if any), then the flags, then --field, each overriding the one before. */
export async function driverInputFrom(flags: RawDriverFlags, members: readonly string[], stdin: NodeJS.ReadableStream, signal?: AbortSignal): Promise<DriverInput> {
  const input: DriverInput = { members: new Map() };
  if (flags.fromFile !== undefined) {
    const source = flags.fromFile === '-' ? 'stdin' : quoteInput(flags.fromFile);
    const file = await readJsonInput(flags.fromFile, stdin, '--from-file', { signal });
    if (file === null || typeof file !== 'object' || Array.isArray(file)) throw new UsageError(`--from-file ${source} must hold a JSON object`);
    for (const [name, json] of Object.entries(file as Record<string, unknown>)) input.members.set(name, { json, origin: `"${name}" in ${source}` });
  }
  for (const name of members) {
    const f = FLAGS.find((flag) => flag.name === name)!;
    const text = flags[f.key];
    if (text !== undefined) input.members.set(name, { text, origin: f.flag });
  }
  for (const [name, text] of fieldTexts(flags.field)) input.members.set(name, { text, origin: `--field ${name}` });
  return input;
}

/** The body and where each member came from, typed by the document in use (flags are text; the document says what they are). */
export function driverBody(rules: BodyRules, input: DriverInput): { body: DriverBody; origins: Record<string, string> } {
  const body: DriverBody = {};
  const origins: Record<string, string> = {};
  for (const [name, given] of input.members) {
    body[name] = given.text === undefined ? given.json : typedMemberValue(given.text, rules, name);
    origins[name] = given.origin;
  }
  return { body, origins };
}

