// The one RFC 3339 reading shared by the sandbox's date parameters and the CLI's date flags.
import { describe, expect, it } from 'vitest';
import { compareInstants, formatInstant, isCalendarDate, parseInstant, parseRfc3339 } from '../../src/shared/rfc3339.js';

describe('parseRfc3339', () => {
  it.each([
    ['2024-05-01T08:00:00Z', '2024-05-01T08:00:00.000Z'],
    ['2024-05-01t08:00:00z', '2024-05-01T08:00:00.000Z'],
    ['2024-05-01T10:00:00+02:00', '2024-05-01T08:00:00.000Z'],
    ['2024-05-01T03:30:00-04:30', '2024-05-01T08:00:00.000Z'],
    ['2024-05-01T08:00:00.5Z', '2024-05-01T08:00:00.500Z'],
    ['2024-05-01T08:00:00.123456789012345Z', '2024-05-01T08:00:00.123Z'],
    ['2024-02-29T00:00:00Z', '2024-02-29T00:00:00.000Z'],
    ['2000-02-29T00:00:00Z', '2000-02-29T00:00:00.000Z'],
    ['0001-01-01T00:00:00Z', '0001-01-01T00:00:00.000Z'],
    ['0099-12-31T23:59:59Z', '0099-12-31T23:59:59.000Z'],
    ['9999-12-31T23:59:59.999Z', '9999-12-31T23:59:59.999Z'],
  ])('%s is %s', (text, iso) => expect(new Date(parseRfc3339(text)!).toISOString()).toBe(iso));

  it('takes a leap second where one can be (the last minute of a UTC day), as the second before it', () => {
    expect(new Date(parseRfc3339('2016-12-31T23:59:60Z')!).toISOString()).toBe('2016-12-31T23:59:59.000Z');
    expect(new Date(parseRfc3339('2016-12-31T23:59:60.25Z')!).toISOString()).toBe('2016-12-31T23:59:59.250Z');
    expect(new Date(parseRfc3339('2017-01-01T00:59:60+01:00')!).toISOString()).toBe('2016-12-31T23:59:59.000Z');
    expect(new Date(parseRfc3339('2016-12-31T18:59:60-05:00')!).toISOString()).toBe('2016-12-31T23:59:59.000Z');
    expect(parseRfc3339('2016-12-31T12:00:60Z')).toBeUndefined();
    expect(parseRfc3339('2016-12-31T23:59:60+01:00')).toBeUndefined();
  });

  it.each([
    '2026-02-30T00:00:00Z', '2023-02-29T00:00:00Z', '1900-02-29T00:00:00Z', '2024-04-31T00:00:00Z', '2024-13-01T00:00:00Z',
    '2024-00-10T00:00:00Z', '2024-05-00T00:00:00Z', '2026-01-01T24:00:00Z', '2026-01-01T23:60:00Z', '2026-01-01T23:59:61Z',
    '2026-01-01T00:00:00+24:00', '2026-01-01T00:00:00+01:60', '2026-01-01T00:00:00', '2026-01-01', '2026-01-01 00:00:00Z',
    '2026-01-01T00:00Z', '2026-01-01T00:00:00.Z', '2026-01-01T00:00:00+0100', '+02026-01-01T00:00:00Z', '26-01-01T00:00:00Z',
    '2026-01-01T00:00:00Z ', '', 'yesterday',
  ])('refuses %j', (text) => expect(parseRfc3339(text)).toBeUndefined());
});

describe('parseInstant and compareInstants', () => {
  const instant = (text: string) => parseInstant(text)!;

  it('keeps nine digits of fraction beyond the millisecond a Date keeps', () => {
    expect(parseInstant('2024-05-01T08:00:00.123456789Z')).toEqual({ ms: Date.parse('2024-05-01T08:00:00.123Z'), nanos: 456_789 });
    expect(parseInstant('2024-05-01T08:00:00.1234567891Z')).toEqual(parseInstant('2024-05-01T08:00:00.123456789Z'));
    expect(parseInstant('2024-05-01T08:00:00Z')).toEqual({ ms: Date.parse('2024-05-01T08:00:00Z'), nanos: 0 });
    expect(parseInstant('2024-05-01T08:00:00+24:00')).toBeUndefined();
  });

  it('the same instant however it is written: offsets, case, fraction lengths', () => {
    const same = ['2024-05-01T08:00:00.3Z', '2024-05-01t08:00:00.300000000z', '2024-05-01T13:30:00.30+05:30', '2024-05-01T00:00:00.300-08:00', '2024-04-30T23:00:00.3000-09:00'];
    for (const text of same) expect(compareInstants(instant(text), instant(same[0]!))).toBe(0);
  });

  it('orders by instant where the text orders otherwise', () => {
    // by text, 12:00+05:30 sorts after 08:00Z; it is 06:30Z, before
    expect(compareInstants(instant('2024-05-01T12:00:00+05:30'), instant('2024-05-01T08:00:00Z'))).toBeLessThan(0);
    expect(compareInstants(instant('2024-05-01T01:00:00-08:00'), instant('2024-05-01T08:00:00Z'))).toBeGreaterThan(0);
    // below the millisecond, and before 1970
    expect(compareInstants(instant('2024-05-01T08:00:00.0000001Z'), instant('2024-05-01T08:00:00.000000099Z'))).toBeGreaterThan(0);
    expect(compareInstants(instant('1969-12-31T23:59:59.9999999Z'), instant('1970-01-01T00:00:00Z'))).toBeLessThan(0);
    expect(compareInstants(instant('1969-12-31T23:59:59.9999999Z'), instant('1969-12-31T23:59:59.999999Z'))).toBeGreaterThan(0);
  });

  it('formatInstant writes UTC with only the digits it needs beyond three', () => {
    expect(formatInstant(instant('2024-05-01T13:30:00+05:30'))).toBe('2024-05-01T08:00:00.000Z');
    expect(formatInstant(instant('2024-05-01T08:00:00.12345Z'))).toBe('2024-05-01T08:00:00.12345Z');
    expect(formatInstant(instant('2024-05-01T08:00:00.000000001Z'))).toBe('2024-05-01T08:00:00.000000001Z');
  });
});

describe('isCalendarDate', () => {
  it('knows the length of every month, and the Gregorian leap years', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12].map((m) => [28, 29, 30, 31, 32].find((d) => !isCalendarDate(2023, m, d))! - 1))
      .toEqual([31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]);
    expect([1900, 2000, 2023, 2024].map((y) => isCalendarDate(y, 2, 29))).toEqual([false, true, false, true]);
  });
});
