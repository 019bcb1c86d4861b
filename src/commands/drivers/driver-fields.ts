// The fields of the create- and update-driver commands: their flags, and the checks the document's schemas
// (CreateDriverCommand, UpdateDriverCommand) make, run here before any request.
import { Option, type Command } from 'commander';
import { UsageError } from '../../errors.js';
import { readJsonInput } from '../../io/read-input.js';
import { completeValues, type ValueCompletion } from '../../completion/values.js';
import { quoteInput } from '../../output/terminal-text.js';
import { requireNonEmpty, requireUuid } from '../shared/validate.js';

export const DRIVER_STATUSES = ['active', 'inactive'] as const;
export type DriverStatus = (typeof DRIVER_STATUSES)[number];

type FieldKind = 'uuid' | 'name' | 'email' | 'text' | 'status';

interface DriverField {
  /** The JSON member of the command body. */
  name: string;
  flag: string;
  /** commander's camelCase key of the flag. */
  key: string;
  kind: FieldKind;
  help: string;
  completion?: ValueCompletion;
}

const FIELDS: readonly DriverField[] = [
  { name: 'organization_id', flag: '--organization-id', key: 'organizationId', kind: 'uuid', help: 'organization of the driver (default: the profile\'s organization)', completion: 'organization-id' },
  { name: 'fleet_id', flag: '--fleet-id', key: 'fleetId', kind: 'uuid', help: 'fleet of the driver, a fleet of that organization', completion: 'fleet-id' },
  { name: 'first_name', flag: '--first-name', key: 'firstName', kind: 'name', help: 'first name, 1 to 100 characters' },
  { name: 'last_name', flag: '--last-name', key: 'lastName', kind: 'name', help: 'last name, 1 to 100 characters' },
  { name: 'email', flag: '--email', key: 'email', kind: 'email', help: 'email address' },
  { name: 'phone', flag: '--phone', key: 'phone', kind: 'text', help: 'phone number' },
  { name: 'license_number', flag: '--license-number', key: 'licenseNumber', kind: 'text', help: 'driving licence number' },
  { name: 'employee_id', flag: '--employee-id', key: 'employeeId', kind: 'text', help: 'employee id' },
  { name: 'status', flag: '--status', key: 'status', kind: 'status', help: 'driver status' },
];

/** Members of the create-driver command, the first four required (document: CreateDriverCommand). */
export const CREATE_FIELDS = ['organization_id', 'fleet_id', 'first_name', 'last_name', 'email', 'phone', 'license_number', 'employee_id'] as const;
export const CREATE_REQUIRED = ['organization_id', 'fleet_id', 'first_name', 'last_name'] as const;
/** Members of the update-driver command, at least one (document: UpdateDriverCommand). */
export const UPDATE_FIELDS = ['first_name', 'last_name', 'email', 'phone', 'license_number', 'employee_id', 'fleet_id', 'status'] as const;

export type DriverBody = Record<string, string | null>;
export type RawDriverFlags = Record<string, string | undefined> & { fromFile?: string };

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const NULLABLE: ReadonlySet<FieldKind> = new Set(['email', 'text']);

function field(name: string): DriverField {
  return FIELDS.find((f) => f.name === name)!;
}

export function flagOf(name: string): string {
  return field(name).flag;
}

/** Adds one option per member, then --from-file. */
export function addDriverFieldOptions(command: Command, members: readonly string[], clearable: boolean): Command {
  for (const name of members) {
    const f = field(name);
    const clear = clearable && NULLABLE.has(f.kind) ? '; "" clears it' : '';
    if (f.kind === 'status') command.addOption(new Option(`${f.flag} <status>`, f.help).choices(DRIVER_STATUSES));
    else command.option(`${f.flag} <${f.kind === 'uuid' ? 'uuid' : 'text'}>`, `${f.help}${clear}`);
    if (f.completion) completeValues(command, { [f.flag]: f.completion });
  }
  command.option('--from-file <file>', 'read the fields from a JSON file (- for stdin); flags override its members');
  return completeValues(command, { '--from-file': 'file' });
}

/**
 * The body from --from-file (if any) with the flags laid over it, every member checked.
 * An empty flag value of an optional member means null (clear it).
 */
export async function driverBodyFrom(flags: RawDriverFlags, members: readonly string[], stdin: NodeJS.ReadableStream, signal?: AbortSignal): Promise<DriverBody> {
  const body: DriverBody = {};
  if (flags.fromFile !== undefined) {
    const source = flags.fromFile === '-' ? 'stdin' : quoteInput(flags.fromFile);
    const input = await readJsonInput(flags.fromFile, stdin, '--from-file', { signal });
    if (input === null || typeof input !== 'object' || Array.isArray(input)) throw new UsageError(`--from-file ${source} must hold a JSON object`);
    const unknown = Object.keys(input).filter((key) => !members.includes(key));
    if (unknown.length > 0) {
      throw new UsageError(`--from-file ${source} has unknown member(s): ${unknown.join(', ')}`, `allowed: ${members.join(', ')}`);
    }
    for (const [name, value] of Object.entries(input as Record<string, unknown>)) {
      body[name] = checkMember(name, value, `"${name}" in ${source}`);
    }
  }
  for (const name of members) {
    const f = field(name);
    const value = flags[f.key];
    if (value === undefined) continue;
    body[name] = checkMember(name, value === '' && NULLABLE.has(f.kind) ? null : value, f.flag);
  }
  return body;
}

/** One member's value, as the document's schema allows it; `what` names it in the message. */
export function checkMember(name: string, value: unknown, what: string): string | null {
  const f = field(name);
  if (value === null) {
    if (NULLABLE.has(f.kind)) return null;
    throw new UsageError(`${what} must not be null`);
  }
  if (typeof value !== 'string') throw new UsageError(`${what} must be a string`);
  switch (f.kind) {
    case 'uuid':
      return requireUuid(value, what);
    case 'name':
      return requireNonEmpty(value, what, 100);
    case 'email':
      if (!EMAIL.test(value)) throw new UsageError(`${what} must be an email address, got ${quoteInput(value)}`);
      return value;
    case 'status':
      if (!(DRIVER_STATUSES as readonly string[]).includes(value)) throw new UsageError(`${what} must be one of ${DRIVER_STATUSES.join(', ')}, got ${quoteInput(value)}`);
      return value;
    case 'text':
      if (value.trim().length === 0) throw new UsageError(`${what} must not be blank (use null in a file, or "" as a flag, to clear it)`);
      return value;
  }
}
