// The one path-template matcher (CLI operation look-up, sandbox router, sandbox fault rules).
import { describe, expect, it } from 'vitest';
import { compileTemplate, decodeParams, fitsTemplate, mostSpecific, pathSegments } from '../../src/openapi/path-template.js';

const events = compileTemplate('/v1/devices/{hardwareId}/events');

describe('path templates', () => {
  it('compile to literals and named parameters; * is an unnamed parameter', () => {
    expect(events).toEqual({ path: events.path, literals: ['v1', 'devices', null, 'events'], names: [null, null, 'hardwareId', null], specificity: 3 });
    expect(compileTemplate('/v1/devices/*/events').names).toEqual([null, null, '*', null]);
  });

  it('fit raw segments: literals equal, parameters non-empty, no empty segment skipped', () => {
    expect(fitsTemplate(events, pathSegments('/v1/devices/HW%2D1/events'))).toBe(true);
    expect(fitsTemplate(events, pathSegments('/v1/devices/%ZZ/events'))).toBe(true);
    expect(fitsTemplate(events, pathSegments('/v1/devices//events'))).toBe(false);
    expect(fitsTemplate(events, pathSegments('/v1/devices/HW-1/events/'))).toBe(false);
    expect(fitsTemplate(events, pathSegments('//v1/devices/HW-1/events'))).toBe(false);
    expect(fitsTemplate(events, pathSegments('/v1/devices/HW-1/Events'))).toBe(false);
  });

  it('decode parameters only when asked, naming the one that is badly encoded', () => {
    expect(decodeParams(events, pathSegments('/v1/devices/HW%2D1%20x/events'))).toEqual({ params: { hardwareId: 'HW-1 x' } });
    expect(decodeParams(events, pathSegments('/v1/devices/%ZZ/events'))).toEqual({ badlyEncoded: 'hardwareId' });
  });

  it('prefer the template with the most literal segments, the first of equals', () => {
    const byId = compileTemplate('/v1/events/{eventId}');
    const literal = compileTemplate('/v1/events/search');
    const other = compileTemplate('/v1/{kind}/search');
    expect(mostSpecific([byId, literal, other], (t) => t)).toBe(literal);
    expect(mostSpecific([byId, other], (t) => t)).toBe(byId);
    expect(mostSpecific([], (t) => t)).toBeUndefined();
  });
});
