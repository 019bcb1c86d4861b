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
  if (!view.operation) {
    // rows fleetctl makes have the view's columns: a name that is none of them, nor carried, is a typo (a script
    // would get a column of blanks); an `api` answer has no view and no document to ask, so it is only warned of
    const columns = [...new Set([...view.script, ...view.person])];
    if (columns.length === 0) return warnAbsent(new Set(names), check.warn);
    const unknown = names.filter((name) => !columns.includes(name) && sample.length > 0);
    if (unknown.length > 0) refuse(flag, unknown, [...new Set([...columns, ...everyField(sample)])], 'these rows have no');
    return;
  }
  if (sample.length === 0) return;
  const declared = await (check.declaredFields ?? bundledDeclaredFields)(view.operation);
  const unknown = names.filter((name) => !declared?.has(name));
  if (unknown.length === 0) return;
  const known = [...new Set([...everyField(sample), ...(declared ?? [])])];
  refuse(flag, unknown, known, 'no record has the', `, and the API document does not describe ${unknown.length === 1 ? 'it' : 'them'}`, everyField(sample));
}

/** The names refused, each with the closest known one; the hint lists what may be named. */
function refuse(flag: string, unknown: readonly string[], known: readonly string[], said: string, after = '', listed: readonly string[] = known): never {
  const named = unknown.map((name) => `${quoteInput(name, 40)}${didYouMeanSuffix(name, known)}`);
  const noun = unknown.length === 1 ? 'field' : 'fields';
  throw new UsageError(`${flag}: ${said} ${noun} ${named.join(', ')}${after}`, `fields these records carry: ${listed.join(', ')}`);
}

/** A mistyped --columns name would otherwise show as a silently empty column. */
export function warnAbsent(absent: Set<string>, warn: (line: string) => void): void {
  if (absent.size === 0) return;
  const names = [...absent].map((c) => `"${c}"`).join(', ');
  warn(`--columns: no record has ${absent.size === 1 ? 'a field' : 'fields'} ${names}; check the spelling (nested fields are dotted, such as delivery.url; -o json shows every field)`);
}
