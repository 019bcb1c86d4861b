// `fleetctl status` flags: what they become, and the one-line refusals (exit 2) before any request.
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/errors.js';
import { optionsFrom } from '../../../src/commands/status/index.js';

const FLEET = '8c3f3c8e-1d2b-4f5a-9e7d-0a1b2c3d4e5f';

describe('status options', () => {
  it('defaults: stale after 1h, recent runs within 24h, no thresholds', () => {
    expect(optionsFrom({})).toEqual({ fleetId: undefined, organizationId: undefined, staleAfterMs: 3_600_000, sinceMs: 86_400_000, reportTimeField: undefined, thresholds: [] });
  });

  it('flags as given, thresholds parsed in order', () => {
    const opts = optionsFrom({ fleetId: FLEET, staleAfter: '30m', since: '7d', reportTimeField: 'heard_at', failIf: ['stale>5%', 'never>0'] });
    expect(opts).toMatchObject({ fleetId: FLEET, staleAfterMs: 1_800_000, sinceMs: 604_800_000, reportTimeField: 'heard_at' });
    expect(opts.thresholds.map((t) => [t.metric, t.operator, t.value, t.percent])).toEqual([['stale', '>', 5, true], ['never_reported', '>', 0, false]]);
  });

  it.each([
    [{ fleetId: FLEET, organizationId: FLEET }, 'give --fleet-id or --organization-id, not both'],
    [{ staleAfter: 'soon' }, '--stale-after must be a duration such as 5s, 30m, 24h or 7d, got "soon"'],
    [{ fleetId: 'f1' }, '--fleet-id must be a UUID'],
    [{ failIf: ['stale>5%', 'stale>>5'] }, '--fail-if "stale>>5" is not a threshold'],
  ])('refuses %j', (flags, message) => {
    expect(() => optionsFrom(flags)).toThrow(UsageError);
    expect(() => optionsFrom(flags)).toThrow(message);
  });
});
