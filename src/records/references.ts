// What record another record names (the organization of a fleet): the spec shows no field, so the members named
// for the noun say it: `organization_id`, `organizationId`, `organization: {id}`, `org_ref` or `org: {ref}`.
import { recordId } from './members.js';

/** Short names services give a noun in member names. */
const SHORT: Record<string, string> = { organization: 'org' };

/**
 * The one identifier a record gives for the `noun` it belongs to: a member named for the noun (or its short name)
 * that holds a non-empty string, or an object whose own identifier is one (one level down). Undefined when none
 * does, or when members disagree: the caller then asks rather than guesses.
 */
export function referenceTo(record: unknown, noun: string): string | undefined {
  if (record === null || typeof record !== 'object' || Array.isArray(record)) return undefined;
  const names = [noun, SHORT[noun]].filter((name): name is string => name !== undefined);
  const named = new RegExp(`^(${names.join('|')})([_-]?(id|ref|uuid))?$`, 'i');
  const found = new Set<string>();
  for (const [member, value] of Object.entries(record as Record<string, unknown>)) {
    if (!named.test(member)) continue;
    if (typeof value === 'string' && value.trim() !== '') found.add(value);
    else if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
      const id = recordId(value, noun);
      if (id !== undefined) found.add(id);
    }
  }
  return found.size === 1 ? [...found][0] : undefined;
}
