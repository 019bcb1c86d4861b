// Parameters go on the wire as the document says for each one (OpenAPI 3.1 style and explode): lists in a query,
// every value in a path, lists in a header.
import { describe, expect, it } from 'vitest';
import { hasList, styledHeaderValue, styledPathValue, styledQuery } from '../../src/api/parameter-style.js';
import { expandPath } from '../../src/api/client.js';
import { composeDocument, pathParameterStyles, type OpenApiDoc } from '../../src/openapi/document-shapes.js';

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

describe('styledPathValue: the examples of OpenAPI 3.1 §4.8.12.4, each value percent-encoded', () => {
  const list = ['blue', 'black', 'brown'];
  const object = { R: '100', G: '200', B: '150' };
  it.each([
    ['simple', false, 'blue', 'blue', 'blue,black,brown', 'R,100,G,200,B,150'],
    ['simple', true, 'blue', 'blue', 'blue,black,brown', 'R=100,G=200,B=150'],
    ['label', false, 'blue', '.blue', '.blue,black,brown', '.R,100,G,200,B,150'],
    ['label', true, 'blue', '.blue', '.blue.black.brown', '.R=100.G=200.B=150'],
    ['matrix', false, 'blue', ';color=blue', ';color=blue,black,brown', ';color=R,100,G,200,B,150'],
    ['matrix', true, 'blue', ';color=blue', ';color=blue;color=black;color=brown', ';R=100;G=200;B=150'],
  ])('%s, explode %s', (style, explode, one, wantOne, wantList, wantObject) => {
    expect(styledPathValue('color', one, { style, explode })).toBe(wantOne);
    expect(styledPathValue('color', list, { style, explode })).toBe(wantList);
    expect(styledPathValue('color', object, { style, explode })).toBe(wantObject);
  });

  it('is simple when the document says nothing, and encodes values, never separators', () => {
    expect(styledPathValue('id', 'a/b c')).toBe('a%2Fb%20c');
    expect(styledPathValue('id', 'a;b', { style: 'matrix', explode: false })).toBe(';id=a%3Bb');
    expect(styledPathValue('id', ['x,y', 'z'], { style: 'label', explode: true })).toBe('.x%2Cy.z');
  });

  it('expandPath writes each parameter in its own style', () => {
    const styles = new Map([['id', { style: 'matrix', explode: false }]]);
    expect(expandPath('/v1/devices/{id}/media/{mediaId}', { id: 'd 1', mediaId: 'm.1' }, styles)).toBe('/v1/devices/;id=d%201/media/m.1');
    expect(expandPath('/v1/devices/{id}', { id: 'd1' }, new Map([['id', { style: 'label', explode: false }]]))).toBe('/v1/devices/.d1');
    expect(expandPath('/v1/devices/{id}', { id: 'd1' })).toBe('/v1/devices/d1');
  });
});

describe('styledHeaderValue: simple, the one style of a header', () => {
  it('writes one value as it is and a list joined by commas', () => {
    expect(styledHeaderValue('"abc"')).toBe('"abc"');
    expect(styledHeaderValue(['a', 'b c'])).toBe('a,b c');
  });
});

describe('pathParameterStyles: by the place of the segment, whatever the document names it', () => {
  it("reads the document's style of {deviceId} as that of fleetctl's {id}, the path item's parameters too", async () => {
    const doc = await composeDocument({
      openapi: '3.1.0',
      paths: {
        '/v1/devices/{deviceId}/media/{ref}': {
          parameters: [{ name: 'deviceId', in: 'path', required: true, style: 'label', schema: { type: 'string' } }],
          get: { parameters: [{ $ref: '#/components/parameters/Ref' }] },
        },
        '/v1/devices/{deviceId}': { get: { parameters: [{ name: 'deviceId', in: 'path', required: true, schema: { type: 'string' } }] } },
      },
      components: { parameters: { Ref: { name: 'ref', in: 'path', required: true, style: 'matrix', explode: true, schema: { type: 'string' } } } },
    } as OpenApiDoc);
    expect(pathParameterStyles(doc, 'GET', '/v1/devices/{id}/media/{mediaId}')).toEqual(
      new Map([
        ['id', { style: 'label', explode: false }],
        ['mediaId', { style: 'matrix', explode: true }],
      ]),
    );
    expect(pathParameterStyles(doc, 'GET', '/v1/devices/{id}')).toEqual(new Map([['id', { style: 'simple', explode: false }]]));
    expect(pathParameterStyles(doc, 'DELETE', '/v1/devices/{id}')).toEqual(new Map());
  });
});
