import { describe, expect, it } from 'vitest';
import { dateWindowFrom, parseDateTime, parseDuration } from '../../../src/commands/shared/dates.js';

const NOW = new Date('2024-05-10T12:00:00.000Z');

describe('parseDuration', () => {
  it.each([
    ['5s', 5_000],
    ['30m', 1_800_000],
    ['24h', 86_400_000],
    ['7d', 604_800_000],
    ['1w', 604_800_000],
    ['1.5h', 5_400_000],
  ])('%s → %d ms', (text, ms) => expect(parseDuration(text, '--interval')).toBe(ms));

  it.each(['', '5', 'm', '5 minutes', '-5s', '0s'])('rejects %j', (text) => {
    expect(() => parseDuration(text, '--interval')).toThrow(/--interval must be/);
  });

  it.each(['9999999999d', '36501d', `${'9'.repeat(400)}s`, '5300w'])('bounds %s: a century at most, never an impossible date', (text) => {
    expect(() => parseDuration(text, '--since')).toThrow(/^--since must be at most 36500d, got "/);
    expect(() => parseDateTime(text, '--from', NOW)).toThrow(/^--from must be at most 36500d/);
  });

  it('takes a tighter bound where the caller gives one, and the longest allowed offset is still a date', () => {
    expect(() => parseDuration('2d', '--interval', 86_400_000)).toThrow('--interval must be at most 1d, got "2d"');
    expect(parseDateTime('36500d', '--since', NOW)).toBe('1924-06-04T12:00:00.000Z');
  });
});

describe('parseDateTime', () => {
  it.each([
    ['30m', '2024-05-10T11:30:00.000Z'],
    ['24h', '2024-05-09T12:00:00.000Z'],
    ['7d', '2024-05-03T12:00:00.000Z'],
    ['2024-05-01T08:00:00Z', '2024-05-01T08:00:00.000Z'],
    ['2024-05-01T10:00:00+02:00', '2024-05-01T08:00:00.000Z'],
    ['2024-05-01T08:00Z', '2024-05-01T08:00:00.000Z'],
    ['2024-05-01T08:00:00.250Z', '2024-05-01T08:00:00.250Z'],
    ['2024-05-01', '2024-05-01T00:00:00.000Z'],
    ['2024-05-01 08:00:00+0200', '2024-05-01T06:00:00.000Z'],
    ['2016-12-31T23:59:60Z', '2016-12-31T23:59:59.000Z'],
    // finer than a millisecond is kept, to the nanosecond: the window sent is the one asked for
    ['2024-05-01T08:00:00.1234567890123Z', '2024-05-01T08:00:00.123456789Z'],
    ['2024-05-01t13:30:00.0000005+05:30', '2024-05-01T08:00:00.0000005Z'],
  ])('%s → %s (UTC)', (text, iso) => expect(parseDateTime(text, '--from', NOW)).toBe(iso));

  it('asks for a time zone when there is none', () => {
    expect(() => parseDateTime('2024-05-01T08:00:00', '--from', NOW)).toThrow('--from "2024-05-01T08:00:00" has no time zone');
  });

  it.each(['yesterday', '2024-13-45', '2024-05-01T25:00:00Z', '05/01/2024', '2024-02-30', '2023-02-29T08:00:00Z', '2024-04-31T00:00:00+02:00', '2026-02-30T00:00:00Z', '2026-01-01T24:00:00Z', '2016-12-31T12:00:60Z', '2024-05-01T08:00:00+25:00'])('rejects %j', (text) => {
    expect(() => parseDateTime(text, '--to', NOW)).toThrow(/--to must be an ISO 8601 date-time/);
  });
});

describe('dateWindowFrom', () => {
  it('--since ends the window now', () => {
    expect(dateWindowFrom({ since: '24h' }, NOW)).toEqual({ dateFrom: '2024-05-09T12:00:00.000Z', dateTo: '2024-05-10T12:00:00.000Z' });
  });
  it('--from and --to', () => {
    expect(dateWindowFrom({ from: '2024-05-01T00:00:00Z', to: '1h' }, NOW)).toEqual({
      dateFrom: '2024-05-01T00:00:00.000Z',
      dateTo: '2024-05-10T11:00:00.000Z',
    });
  });
  it('no flags, no window', () => expect(dateWindowFrom({}, NOW)).toEqual({ dateFrom: undefined, dateTo: undefined }));
  it('--since a date-time must be in the past (the window ends now)', () => {
    expect(dateWindowFrom({ since: '2024-05-01' }, NOW)).toEqual({ dateFrom: '2024-05-01T00:00:00.000Z', dateTo: '2024-05-10T12:00:00.000Z' });
    expect(() => dateWindowFrom({ since: '2024-06-01' }, NOW)).toThrow('--since (2024-06-01T00:00:00.000Z) must be in the past');
  });
  it('leap days exist in leap years', () => expect(parseDateTime('2024-02-29', '--from', NOW)).toBe('2024-02-29T00:00:00.000Z'));
  it('--since excludes --from/--to', () => {
    expect(() => dateWindowFrom({ since: '1h', to: '2024-05-01T00:00:00Z' }, NOW)).toThrow('--since cannot be combined with --from or --to');
  });
  it('--from must be before --to', () => {
    expect(() => dateWindowFrom({ from: '1h', to: '2h' }, NOW)).toThrow(
      '--from (2024-05-10T11:00:00.000Z) must be before --to (2024-05-10T10:00:00.000Z)',
    );
    expect(() => dateWindowFrom({ from: '2024-05-01T00:00:00Z', to: '2024-05-01T00:00:00Z' }, NOW)).toThrow(/must be before --to/);
  });
  it('--from and --to are compared as instants: across offsets and below the millisecond', () => {
    // 05:00-08:00 is 13:00Z, after 12:00+05:30 (06:30Z), though its text sorts first
    expect(() => dateWindowFrom({ from: '2024-05-01T05:00:00-08:00', to: '2024-05-01T12:00:00+05:30' }, NOW)).toThrow(/must be before --to/);
    expect(dateWindowFrom({ from: '2024-05-01T12:00:00+05:30', to: '2024-05-01T05:00:00-08:00' }, NOW)).toEqual({ dateFrom: '2024-05-01T06:30:00.000Z', dateTo: '2024-05-01T13:00:00.000Z' });
    expect(dateWindowFrom({ from: '2024-05-01T00:00:00.0001Z', to: '2024-05-01T00:00:00.00010001Z' }, NOW)).toEqual({ dateFrom: '2024-05-01T00:00:00.0001Z', dateTo: '2024-05-01T00:00:00.00010001Z' });
    expect(() => dateWindowFrom({ from: '2024-05-01T00:00:00.0002Z', to: '2024-05-01T00:00:00.0001Z' }, NOW)).toThrow(/must be before --to/);
  });
});
