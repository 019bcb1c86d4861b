// The page limits are defined once (src/shared/page-limits.ts) for the CLI and the sandbox: they must be the
// document's, on every list operation that takes a limit.
import { describe, expect, it } from 'vitest';
import document from '../../src/openapi/v1.json' with { type: 'json' };
import { DEFAULT_LIMIT, MAX_LIMIT, MIN_LIMIT } from '../../src/shared/page-limits.js';
import { parseLimit } from '../../src/api/paginate.js';

interface Parameter {
  $ref?: string;
  name?: string;
  schema?: { minimum?: number; maximum?: number; default?: number };
}

const components = (document as { components: { parameters: Record<string, Parameter> } }).components.parameters;
const resolve = (p: Parameter): Parameter => (p.$ref ? components[p.$ref.replace('#/components/parameters/', '')]! : p);

function limitParameters(): [string, Parameter][] {
  const found: [string, Parameter][] = [];
  for (const [path, item] of Object.entries((document as { paths: Record<string, Record<string, { parameters?: Parameter[] }>> }).paths)) {
    for (const [method, op] of Object.entries(item)) {
      const limit = (op.parameters ?? []).map(resolve).find((p) => p.name === 'limit');
      if (limit) found.push([`${method.toUpperCase()} ${path}`, limit]);
    }
  }
  return found;
}

describe('page limits', () => {
  it('are the document\'s on every list operation', () => {
    const limits = limitParameters();
    expect(limits.length).toBeGreaterThan(3);
    for (const [operation, limit] of limits) {
      expect({ operation, ...limit.schema }).toMatchObject({ operation, minimum: MIN_LIMIT, maximum: MAX_LIMIT, default: DEFAULT_LIMIT });
    }
  });

  it('bound what the CLI sends', () => {
    expect(parseLimit(undefined)).toBe(DEFAULT_LIMIT);
    expect(parseLimit(String(MAX_LIMIT))).toBe(MAX_LIMIT);
    expect(() => parseLimit(String(MAX_LIMIT + 1))).toThrow(`limit must be from ${MIN_LIMIT} to ${MAX_LIMIT}, got ${MAX_LIMIT + 1}`);
    expect(() => parseLimit(String(MIN_LIMIT - 1))).toThrow(/must be from 1 to 500/);
  });
});
