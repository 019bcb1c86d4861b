// Freshness in `fleetctl status`: a device is reporting when its report time, read as an instant (any offset,
// any fraction length), is within --stale-after of now.
import { describe, expect, it } from 'vitest';
import { tallyDevices } from '../../../src/commands/status/device-tally.js';

const NOW = Date.parse('2026-03-01T12:00:00Z');
const progress = { update: () => undefined, above: (write: () => void) => write(), finish: () => undefined };

async function tally(times: (string | null)[], staleAfterMs: number) {
  const records = times.map((seen, i) => ({ hardware_id: `HW-${i}`, seen }));
  const api = { list: async function* () { yield* records; } } as never;
  return tallyDevices(api, { query: {}, staleAfterMs, now: NOW, reportTime: { field: 'seen', source: 'flag' }, signal: new AbortController().signal, progress });
}

describe('tallyDevices freshness', () => {
  it('compares instants across offsets: 17:00+05:30 is 11:30Z, an hour before 12:30-08:00 would sort by text', async () => {
    const counted = await tally(['2026-03-01T17:00:00+05:30', '2026-03-01T04:00:00.000000001-08:00', '2026-03-01t11:59:59.9999z', null, 'yesterday'], 10 * 60_000);
    // 11:30Z is 30 min old (stale); 12:00:00.000000001Z is a hair in the future (reporting); 11:59:59.9999Z is reporting
    expect({ reporting: counted.reporting, stale: counted.stale, never: counted.never_reported, unknown: counted.unknown }).toEqual({ reporting: 2, stale: 1, never: 1, unknown: 1 });
  });

  it('at the bound to below the millisecond: one nanosecond past --stale-after is stale, the bound itself is not', async () => {
    const counted = await tally(['2026-03-01T15:59:59.999999999+05:00', '2026-03-01T11:00:00.000000000Z'], 3_600_000);
    expect({ reporting: counted.reporting, stale: counted.stale }).toEqual({ reporting: 1, stale: 1 });
  });
});
