// Issue 37, point 5: completion of --where offers the selection language's qualifiers, the members the service's
// document declares for its device records, its fleets by id (names beside) and the saved selections.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type SandboxHarness } from '../e2e/harness.js';
import { whereTerms } from '../../src/completion/where-terms.js';

describe('whereTerms', () => {
  it('offers the same terms negated after a leading -', () => {
    const terms = whereTerms('-', { saved: [{ value: '@night' }], fleets: [], members: [{ value: 'firmware.version' }] }).map((c) => c.value);
    expect(terms).toEqual(expect.arrayContaining(['-fleet:', '-has:wake_up', '-stale', '-never-reported', '-@night', '-firmware.version:']));
    expect(terms.every((t) => t.startsWith('-'))).toBe(true);
  });
});

describe('fleetctl __complete where', { timeout: 60_000 }, () => {
  let h: SandboxHarness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.close());

  const complete = async (typed: string) => {
    const r = await h.cli(['__complete', 'where', '--', 'devices', 'list', '--where', typed]);
    expect(r.code).toBe(0);
    return r.stdout.trim().split('\n').filter(Boolean).map((line) => line.split('\t'));
  };

  it("completes the service's fleets by id, with their names beside", async () => {
    const fleets = JSON.parse((await h.cli(['fleets', 'list', '--all', '-o', 'json'])).stdout) as { id: string; name: string }[];
    const offered = await complete('fleet:');
    expect(offered).toEqual(expect.arrayContaining(fleets.slice(0, 3).map((f) => [`fleet:${f.id}`, f.name])));
  });

  it('completes the members its document declares, and saved selections', async () => {
    expect((await complete('last_')).map(([value]) => value)).toEqual(['last_seen_at:']);
    expect((await h.cli(['selection', 'save', 'quiet-north', '--where', 'seen:>1d'])).code).toBe(0);
    expect(await complete('@q')).toEqual([['@quiet-north', 'seen:>1d']]);
  });
});
