// The fields a user names (--columns, --sort) checked against the records and the API document in use: a typo is
// refused with a suggestion before anything is printed, a field the service's document describes never is.
import { UsageError } from '../errors.js';
import { didYouMeanSuffix } from '../shared/did-you-mean.js';
import { quoteInput } from '../shared/terminal-text.js';
import { bundledDeclaredFields, type DeclaredFields, type ResourceView } from './columns.js';
import { carries, everyField } from './record-fields.js';

export interface FieldCheck {
  given: readonly string[];
  view: ResourceView;
  /** The records to judge by: the first page, or every record held. */
  sample: readonly unknown[];
  flag: string;
  declaredFields?: DeclaredFields;
  warn(line: string): void;
}

/**
 * Names given with --columns or --sort that no record carries are refused unless the API document in use
 * describes them for these records (an optional field): a typo is caught, a field of the service never is.
 */
export async function refuseUnknownFields(check: FieldCheck): Promise<void> {
  const { given, view, sample, flag } = check;
  const names = given.filter((name) => !sample.some((record) => carries(record, name)));
  if (names.length === 0) return;
  // rows fleetctl makes, or an `api` answer: no document to ask, and nothing printed yet to judge by but them
  if (!view.operation) return warnAbsent(new Set(names), check.warn);
  if (sample.length === 0) return;
  const declared = await (check.declaredFields ?? bundledDeclaredFields)(view.operation);
  const unknown = names.filter((name) => !declared?.has(name));
  if (unknown.length === 0) return;
  const known = [...new Set([...everyField(sample), ...(declared ?? [])])];
  const named = unknown.map((name) => `${quoteInput(name, 40)}${didYouMeanSuffix(name, known)}`);
  const noun = unknown.length === 1 ? 'field' : 'fields';
  throw new UsageError(`${flag}: no record has the ${noun} ${named.join(', ')}, and the API document does not describe ${unknown.length === 1 ? 'it' : 'them'}`, `fields these records carry: ${everyField(sample).join(', ')}`);
}

/** A mistyped --columns name would otherwise show as a silently empty column. */
export function warnAbsent(absent: Set<string>, warn: (line: string) => void): void {
  if (absent.size === 0) return;
  const names = [...absent].map((c) => `"${c}"`).join(', ');
  warn(`--columns: no record has ${absent.size === 1 ? 'a field' : 'fields'} ${names}; check the spelling (nested fields are dotted, such as delivery.url; -o json shows every field)`);
}
