// Path templates as the OpenAPI document writes them ("/v1/devices/{hardwareId}/events"; `*` is an unnamed
// parameter, as fault rules write it): the one matcher behind the CLI's "which operation is this path", the
// sandbox's router and its fault rules. Matching compares the raw, still percent-encoded segments, and the
// parameters are decoded only once a template is chosen, so a bad encoding is reported under the name that
// template gives it, and a path no template has stays a 404.

export interface PathTemplate {
  path: string;
  /** Per segment: the literal text, or null for a parameter. */
  literals: readonly (string | null)[];
  /** Per segment: the parameter's name (`*` for an unnamed one), or null for a literal. */
  names: readonly (string | null)[];
  /** How many segments are literal: a literal beats a parameter, so the template with more is more specific. */
  specificity: number;
}

export function compileTemplate(path: string): PathTemplate {
  const segments = pathSegments(path);
  const names = segments.map((s) => (s === '*' ? '*' : (/^\{([^{}]+)\}$/.exec(s)?.[1] ?? null)));
  const literals = segments.map((s, i) => (names[i] === null ? s : null));
  return { path, literals, names, specificity: literals.filter((s) => s !== null).length };
}

/** The segments of a path: '/a/b' → ['a', 'b']. Empty segments ('//', a trailing '/') are kept: they match nothing. */
export function pathSegments(path: string): string[] {
  return path.split('/').slice(1);
}

/** Whether the (raw) segments fit the template: every literal equal, every parameter a non-empty segment. */
export function fitsTemplate(template: PathTemplate, segments: readonly string[]): boolean {
  const { literals } = template;
  if (literals.length !== segments.length) return false;
  return literals.every((literal, i) => (literal === null ? segments[i] !== '' : literal === segments[i]));
}

/** Of the candidates, the one whose template is the most specific (the first of equals); undefined for none. */
export function mostSpecific<T>(candidates: readonly T[], templateOf: (candidate: T) => PathTemplate): T | undefined {
  let best: T | undefined;
  for (const candidate of candidates) {
    if (best === undefined || templateOf(candidate).specificity > templateOf(best).specificity) best = candidate;
  }
  return best;
}

export type DecodedParams = { params: Record<string, string> } | { badlyEncoded: string };

/** The template's parameters, percent-decoded, or the name of the first that is not valid percent-encoding. */
export function decodeParams(template: PathTemplate, segments: readonly string[]): DecodedParams {
  const params: Record<string, string> = {};
  for (const [i, name] of template.names.entries()) {
    if (name === null) continue;
    try {
      params[name] = decodeURIComponent(segments[i]!);
    } catch {
      return { badlyEncoded: name };
    }
  }
  return { params };
}
