// Reading a member of a JSON value by its dotted path (firmware.version): the one walk that tables, sorting and
// the record boundary share.

/** The member at a dotted path, own members only; undefined when a step is missing or not an object. */
export function valueAt(record: unknown, path: string): unknown {
  let current: unknown = record;
  for (const part of path.split('.')) {
    // own members only: a column named constructor or __proto__ is a field a record does not have
    if (current === null || typeof current !== 'object' || !Object.hasOwn(current, part)) return undefined;
    current = (current as Record<string, unknown>)[part];
  }
  return current;
}
