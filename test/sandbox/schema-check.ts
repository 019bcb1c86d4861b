// A small JSON Schema subset checker for the OpenAPI document's response schemas: $ref, type (with
// null unions), required, properties, additionalProperties: false, items, enum, format uuid/date-time,
// minimum/maximum, maxItems, oneOf/anyOf/allOf. Enough to catch a sandbox answer drifting from the document.
import document from '../../src/openapi/v1.json' with { type: 'json' };

type Schema = Record<string, any>;
const doc = document as Record<string, any>;

export function resolve(ref: string): Schema {
  return ref.replace(/^#\//, '').split('/').reduce((node: any, part) => node[part.replace(/~1/g, '/').replace(/~0/g, '~')], doc);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const typeOf = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : Number.isInteger(v) ? 'integer' : typeof v);

/** Problems found, as "path: message" strings (empty when the value conforms). */
export function check(schema: Schema, value: unknown, path = '$'): string[] {
  if (schema.$ref) return check(resolve(schema.$ref), value, path);
  const errors: string[] = [];
  if (schema.allOf) for (const s of schema.allOf) errors.push(...check(s, value, path));
  for (const key of ['oneOf', 'anyOf'] as const) {
    if (schema[key] && !schema[key].some((s: Schema) => check(s, value, path).length === 0)) errors.push(`${path}: matches none of ${key}`);
  }
  if (schema.type) {
    const types: string[] = Array.isArray(schema.type) ? schema.type : [schema.type];
    const actual = typeOf(value);
    if (!types.includes(actual) && !(actual === 'integer' && types.includes('number'))) return [...errors, `${path}: ${actual} is not ${types.join('|')}`];
  }
  if (schema.enum && !schema.enum.includes(value)) errors.push(`${path}: ${JSON.stringify(value)} not in enum`);
  if (typeof value === 'string') {
    if (schema.format === 'uuid' && !UUID.test(value)) errors.push(`${path}: not a uuid`);
    if (schema.format === 'date-time' && Number.isNaN(Date.parse(value))) errors.push(`${path}: not a date-time`);
    if (schema.format === 'uri' && !URL.canParse(value)) errors.push(`${path}: not a uri`);
  }
  if (typeof value === 'number') {
    if (schema.minimum !== undefined && value < schema.minimum) errors.push(`${path}: below minimum`);
    if (schema.maximum !== undefined && value > schema.maximum) errors.push(`${path}: above maximum`);
  }
  if (Array.isArray(value)) {
    if (schema.maxItems !== undefined && value.length > schema.maxItems) errors.push(`${path}: too many items`);
    if (schema.items) value.forEach((item, i) => errors.push(...check(schema.items, item, `${path}[${i}]`)));
  }
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    const obj = value as Record<string, unknown>;
    for (const name of schema.required ?? []) if (!(name in obj)) errors.push(`${path}: missing ${name}`);
    for (const [name, v] of Object.entries(obj)) {
      const prop = schema.properties?.[name];
      if (prop) errors.push(...check(prop, v, `${path}.${name}`));
      else if (schema.additionalProperties === false) errors.push(`${path}: unexpected ${name}`);
    }
  }
  return errors;
}

/** The schema of an operation's response for a status and media type. */
export function responseSchema(method: string, path: string, status: number, mediaType: string): Schema | undefined {
  const op = doc.paths[path]?.[method.toLowerCase()];
  let response = op?.responses?.[String(status)];
  if (response?.$ref) response = resolve(response.$ref);
  return response?.content?.[mediaType]?.schema;
}
