// Lists in a query string follow the document's style and explode for that parameter.
import { describe, expect, it } from 'vitest';
import { hasList, styledQuery } from '../../src/api/query-style.js';

describe('styledQuery', () => {
  const query = { ids: ['a', 'b'], kinds: ['x', 'y'], pipes: ['1', '2'], spaces: ['p', 'q'], unnamed: ['m', 'n'], limit: 5, cursor: undefined };
  const styles = new Map([
    ['ids', { style: 'form', explode: true }],
    ['kinds', { style: 'form', explode: false }],
    ['pipes', { style: 'pipeDelimited', explode: false }],
    ['spaces', { style: 'spaceDelimited', explode: false }],
    ['limit', { style: 'form', explode: false }],
  ]);

  it('repeats an exploded list and one the document does not name; joins the others by their style', () => {
    expect(styledQuery(query, styles)).toEqual({ ids: ['a', 'b'], kinds: 'x,y', pipes: '1|2', spaces: 'p q', unnamed: ['m', 'n'], limit: 5, cursor: undefined });
  });

  it('only a query holding a list needs the document', () => {
    expect(hasList({ limit: 5, hardware_id: 'HW-1' })).toBe(false);
    expect(hasList({ fleet_ids: ['a'] })).toBe(true);
    expect(hasList(undefined)).toBe(false);
  });
});
