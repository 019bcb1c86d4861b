// How a parameter's value goes on the wire: as the document in use says for that parameter (OpenAPI's `style` and
// `explode`, OpenAPI 3.1 §4.8.12.4), not as fleetctl would guess.
// - Query (default form, exploded): a list repeats the parameter once per value (fleet_ids=a&fleet_ids=b); form
//   not exploded joins the values with commas (fleet_ids=a,b); spaceDelimited and pipeDelimited join them with a
//   space or a pipe. Single values read the same in every query style.
// - Path (default simple): simple is the value (a list a,b); label prefixes a dot (.v; a list .a,b, exploded
//   .a.b); matrix names the parameter (;id=v; a list ;id=a,b, exploded ;id=a;id=b). Each value is percent-encoded,
//   the separators are not. Here a single value differs by style: a path needs the document whenever it has one.
// - Header (simple, the only style OpenAPI gives a header): the value; a list a,b. No document is needed for it.

/** A value of a query parameter as a call gives it: a list is repeated or joined, as its style says. */
export type QueryValue = string | number | boolean | readonly string[] | undefined;

/** A value of a path parameter: one value, a list, or an object of named values. */
export type ParameterValue = string | number | boolean | readonly string[] | Readonly<Record<string, string>>;

export interface ParameterStyle {
  style: string;
  explode: boolean;
}

/** How the document in use writes the query and path parameters of one operation, by name. */
export interface ParameterStyles {
  query: ReadonlyMap<string, ParameterStyle>;
  path: ReadonlyMap<string, ParameterStyle>;
}

/** A value of a header as a call gives it: one, or a list. */
export type HeaderValue = string | readonly string[];

const JOINERS: Record<string, string> = { form: ',', spaceDelimited: ' ', pipeDelimited: '|' };
/** OpenAPI 3.1's default for a path parameter that states no style. */
const SIMPLE: ParameterStyle = { style: 'simple', explode: false };

/** Whether a query carries a list, the one kind of query value whose form depends on the document. */
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

/** The parts of a value: one, the items of a list, or the name-value pairs of an object. */
function partsOf(value: ParameterValue, encode: (text: string) => string): { items: string[]; pairs?: [string, string][] } {
  if (Array.isArray(value)) return { items: (value as readonly string[]).map(encode) };
  if (typeof value === 'object') {
    const pairs = Object.entries(value as Record<string, string>).map(([k, v]): [string, string] => [encode(k), encode(v)]);
    return { items: pairs.flat(), pairs };
  }
  return { items: [encode(String(value))] };
}

/**
 * The text that stands for `{name}` in a path, percent-encoded by `encode` (each value, never a separator), as the
 * parameter's style says (simple when the document says nothing). A style a path cannot have is written simple.
 */
export function styledPathValue(name: string, value: ParameterValue, style: ParameterStyle = SIMPLE, encode: (text: string) => string = encodeURIComponent): string {
  const { items, pairs } = partsOf(value, encode);
  const exploded = (joiner: string) => (pairs ? pairs.map(([k, v]) => `${k}=${v}`) : items).join(joiner);
  switch (style.style) {
    case 'label':
      return `.${style.explode ? exploded('.') : items.join(',')}`;
    case 'matrix':
      if (style.explode) return pairs ? `;${exploded(';')}` : items.map((item) => `;${encode(name)}=${item}`).join('');
      return `;${encode(name)}=${items.join(',')}`;
    default:
      return style.explode && pairs ? exploded(',') : items.join(',');
  }
}

/** A header's value, written simple (the one style OpenAPI allows a header): a list as a,b. */
export function styledHeaderValue(value: HeaderValue): string {
  return typeof value === 'string' ? value : value.join(',');
}
