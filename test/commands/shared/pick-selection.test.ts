// The first prompt of a bulk picker with saved selections: one by one first, the saved selections a term names,
// and the term itself as a condition (issue 37, point 5).
import { describe, expect, it } from 'vitest';
import { startingChoices } from '../../../src/commands/shared/pick-selection.js';

const saved = { 'stale-north': 'fleet:North stale', 'no-wake': '-has:wake_up' };
const lines = (term: string) => startingChoices(saved, term).map((item) => ('separator' in item ? item.separator : [item.value, item.name]));

describe('startingChoices', () => {
  it('with nothing typed: one by one under the cursor, then every saved selection with its expression', () => {
    expect(lines('')).toEqual([
      ['', 'Every device, ticked one by one'],
      ['@stale-north', '@stale-north  fleet:North stale'],
      ['@no-wake', '@no-wake  -has:wake_up'],
    ]);
  });

  it('a term names the saved selections it is part of (with or without @), then offers itself as a condition', () => {
    expect(lines('@NORTH')).toEqual([
      ['@stale-north', '@stale-north  fleet:North stale'],
      ['@NORTH', 'Devices where @NORTH'],
      ['', 'Every device, ticked one by one'],
    ]);
    expect(lines(' seen:>2h ')).toEqual([
      ['seen:>2h', 'Devices where seen:>2h'],
      ['', 'Every device, ticked one by one'],
    ]);
  });

  it('lines are made safe for the terminal and fitted by the caller\'s width', () => {
    const odd = { odd: 'name:"a\u001b[31mb"' };
    expect((startingChoices(odd, '')[1] as { name: string }).name).not.toContain('\u001b');
    expect((startingChoices(odd, '', (text) => text.slice(0, 12))[1] as { name: string }).name).toBe('@odd  name:"');
  });
});
