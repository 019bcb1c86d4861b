// How a list goes into a query string: as the document in use says for that parameter (OpenAPI's `style` and
// `explode`), not as fleetctl would guess. A query's default (form, exploded) repeats the parameter once per value
// (fleet_ids=a&fleet_ids=b); form not exploded joins the values with commas (fleet_ids=a,b); spaceDelimited and
// pipeDelimited join them with a space or a pipe. Single values read the same in every style, so only a request
// that carries a list needs the document at all.

/** A value of a query parameter as a call gives it: a list is repeated or joined, as its style says. */
export type QueryValue = string | number | boolean | readonly string[] | undefined;

export interface ParameterStyle {
  style: string;
  explode: boolean;
}

const JOINERS: Record<string, string> = { form: ',', spaceDelimited: ' ', pipeDelimited: '|' };

/** Whether a query carries a list, the one kind of value whose form depends on the document. */
export function hasList(query: Record<string, QueryValue> | undefined): boolean {
  return Object.values(query ?? {}).some((value) => Array.isArray(value));
}

/** The query with each list written as its parameter's style says; parameters the document does not name are repeated. */
export function styledQuery(query: Record<string, QueryValue>, styles: ReadonlyMap<string, ParameterStyle>): Record<string, QueryValue> {
  const out: Record<string, QueryValue> = {};
  for (const [name, value] of Object.entries(query)) {
    const style = styles.get(name);
    const joiner = style && !style.explode ? JOINERS[style.style] : undefined;
    out[name] = Array.isArray(value) && joiner !== undefined ? value.join(joiner) : value;
  }
  return out;
}
