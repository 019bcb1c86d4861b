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

  it('--watch and its flags', () => {
    expect(optionsFrom({ watch: '5m', failIf: ['stale>0'], onBreach: './page.sh', exitOnBreach: true, checkpoint: 'w.json' }).watch).toEqual({ intervalMs: 300_000, onBreach: './page.sh', exitOnBreach: true, checkpoint: 'w.json' });
    expect(optionsFrom({ watch: '1s' }).watch).toEqual({ intervalMs: 1000, exitOnBreach: false });
  });

  it.each([
    [{ fleetId: FLEET, organizationId: FLEET }, 'give --fleet-id or --organization-id, not both'],
    [{ staleAfter: 'soon' }, '--stale-after must be a duration such as 5s, 30m, 24h or 7d, got "soon"'],
    [{ fleetId: 'f1' }, '--fleet-id must be a UUID'],
    [{ failIf: ['stale>5%', 'stale>>5'] }, '--fail-if "stale>>5" is not a threshold'],
    [{ watch: '500ms' }, '--watch must be a duration such as 5s'],
    [{ watch: '0.5s' }, '--watch must be at least 1s, got "0.5s"'],
    [{ onBreach: 'page' , failIf: ['stale>0'] }, '--on-breach only applies with --watch'],
    [{ exitOnBreach: true }, '--exit-on-breach only applies with --watch'],
    [{ checkpoint: 'w.json' }, '--checkpoint only applies with --watch'],
    [{ watch: '1m', onBreach: 'page' }, '--on-breach needs a --fail-if threshold to be breached'],
    [{ watch: '1m', exitOnBreach: true }, '--exit-on-breach needs a --fail-if threshold to be breached'],
    [{ watch: '1m', list: 'stale' }, '--watch follows the report, not a --list of devices'],
    [{ watch: '1m', failIf: ['stale>0'], onBreach: ' ' }, '--on-breach needs a command'],
  ])('refuses %j', (flags, message) => {
    expect(() => optionsFrom(flags)).toThrow(UsageError);
    expect(() => optionsFrom(flags)).toThrow(message);
  });
});
