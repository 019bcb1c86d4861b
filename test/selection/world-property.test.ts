// Issue 37, point 6: over random worlds (device records with their members present, missing, null or unreadable,
// report times written with any offset and 0 to 9 fraction digits) and random expressions, a selection applied
// page by page to the devices list keeps exactly the devices an independent reference evaluation selects, never
// one outside it; devices the reference cannot decide are the ones counted as undecided.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { paginate, type Page, type PageOptions } from '../../src/api/paginate.js';
import { parseSelection, printSelection } from '../../src/selection/grammar.js';
import { deviceSelector, type SelectionService } from '../../src/selection/devices.js';

const NOW_MS = Date.parse('2026-11-27T12:00:00Z');
const NOW_NS = BigInt(NOW_MS) * 1_000_000n;
const HOUR_NS = 3_600_000_000_000n;
const STALE_AFTER_NS = HOUR_NS;

const FLEETS = [
  { id: '0f0f0f0f-0000-4000-8000-000000000001', name: 'North Depot' },
  { id: '0f0f0f0f-0000-4000-8000-000000000002', name: 'South Depot' },
  { id: '0f0f0f0f-0000-4000-8000-000000000003', name: 'East' },
];

interface World {
  devices: Record<string, unknown>[];
  /** The fleet of each device, as the service knows it (its records need not say). */
  fleetOf: Map<string, string>;
}

// ---- the reference: a direct reading of the grammar's documentation, written apart from src/selection ----

type Truth = boolean | undefined;
const and = (xs: Truth[]): Truth => (xs.includes(false) ? false : xs.includes(undefined) ? undefined : true);
const or = (xs: Truth[]): Truth => (xs.includes(true) ? true : xs.includes(undefined) ? undefined : false);

/** Nanoseconds since the epoch of an RFC 3339 date-time, by its own reading (BigInt, any offset, any fraction). */
function nanos(text: unknown): bigint | undefined {
  if (typeof text !== 'string') return undefined;
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(Z|([+-])(\d{2}):(\d{2}))$/.exec(text);
  if (!m) return undefined;
  const base = BigInt(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6])));
  const fraction = BigInt((m[7] ?? '').slice(0, 9).padEnd(9, '0'));
  const offsetMin = m[8] === 'Z' ? 0 : (m[9] === '-' ? -1 : 1) * (Number(m[10]) * 60 + Number(m[11]));
  return base * 1_000_000n + fraction - BigInt(offsetMin) * 60_000_000_000n;
}

/** The report instant: null never (null or left out), undefined unreadable. */
function report(device: Record<string, unknown>): bigint | null | undefined {
  const value = device.seen_at;
  if (value === null || value === undefined) return null;
  return nanos(value);
}

interface Cond {
  text: string;
  truth(device: Record<string, unknown>, world: World): Truth;
}

const capability = (device: Record<string, unknown>, name: string): Truth => {
  const caps = device.capabilities;
  if (Array.isArray(caps) && caps.includes(name)) return true;
  // a list fleetctl reads: strings, empty, or naming a command it sends
  if (Array.isArray(caps) && caps.every((c) => typeof c === 'string') && (caps.length === 0 || caps.some((c) => c === 'reboot' || c === 'wake_up'))) return false;
  return undefined;
};

const durationNs = (text: string) => BigInt(Number(text.slice(0, -1))) * { m: 60_000_000_000n, h: HOUR_NS }[text.slice(-1) as 'm' | 'h'];

const conditions: fc.Arbitrary<Cond> = fc.oneof(
  fc.constantFrom(...FLEETS).chain((fleet) =>
    fc.boolean().map((byName): Cond => ({
      text: `fleet:${byName ? `"${fleet.name.toLowerCase()}"` : fleet.id}`,
      truth: (d, w) => w.fleetOf.get(d.hardware_id as string) === fleet.id,
    })),
  ),
  fc.constantFrom('reboot', 'wake_up').map((name): Cond => ({ text: `has:${name}`, truth: (d) => capability(d, name) })),
  fc.tuple(fc.constantFrom('>', '<'), fc.integer({ min: 1, max: 6 }), fc.constantFrom('h', 'm')).map(([op, n, unit]): Cond => ({
    text: `seen:${op}${n}${unit}`,
    truth: (d) => {
      const at = report(d);
      if (at === null) return false;
      if (at === undefined) return undefined;
      const age = NOW_NS - at;
      return op === '>' ? age > durationNs(`${n}${unit}`) : age < durationNs(`${n}${unit}`);
    },
  })),
  fc.constant<Cond>({ text: 'never-reported', truth: (d) => (report(d) === undefined ? undefined : report(d) === null) }),
  fc.constant<Cond>({
    text: 'stale',
    truth: (d) => {
      const at = report(d);
      return at === undefined ? undefined : at !== null && NOW_NS - at > STALE_AFTER_NS;
    },
  }),
  fc.tuple(fc.constantFrom('>', '<=', ''), fc.integer({ min: 0, max: 100 })).map(([op, n]): Cond => ({
    text: `battery:${op}${n}`,
    truth: (d) => {
      const raw = d.battery;
      const value = typeof raw === 'number' ? raw : typeof raw === 'string' && raw.trim() !== '' && Number.isFinite(Number(raw)) ? Number(raw) : undefined;
      if (value === undefined) return false;
      return op === '>' ? value > n : op === '<=' ? value <= n : value === n;
    },
  })),
  fc.constantFrom('1.', '2.0', 'beta').map((text): Cond => ({
    text: `fw.version:~${text}`,
    truth: (d) => {
      const version = (d.fw as { version?: unknown } | undefined)?.version;
      return typeof version === 'string' && version.toLowerCase().includes(text.toLowerCase());
    },
  })),
  fc.constantFrom('night', 'EAST').map((tag): Cond => ({
    text: `tags:${tag}`,
    truth: (d) => Array.isArray(d.tags) && d.tags.some((t) => typeof t === 'string' && t.toLowerCase() === tag.toLowerCase()),
  })),
  fc.tuple(fc.constantFrom('>', '<'), fc.integer({ min: 0, max: 8 * 60 })).map(([op, minutesAgo]): Cond => {
    const bound = new Date(NOW_MS - minutesAgo * 60_000).toISOString();
    return {
      text: `seen_at:${op}${bound}`,
      truth: (d) => {
        const at = nanos(d.seen_at);
        if (at === undefined) return false;
        const b = nanos(bound)!;
        return op === '>' ? at > b : at < b;
      },
    };
  }),
);

const expressions = fc.array(fc.tuple(fc.boolean(), conditions), { minLength: 1, maxLength: 4 }).map((terms) => ({
  text: terms.map(([negated, c]) => `${negated ? '-' : ''}${c.text}`).join(' '),
  truth: (d: Record<string, unknown>, w: World): Truth =>
    and(
      terms.map(([negated, c]) => {
        const t = c.truth(d, w);
        return negated && t !== undefined ? !t : t;
      }),
    ),
}));

// ---- random worlds ----

/** A report time written with an offset and 0 to 9 fraction digits, or null, left out, or not a date-time. */
const reportTimes = fc.oneof(
  { weight: 6, arbitrary: fc.tuple(fc.bigInt({ min: 0n, max: 8n * HOUR_NS }), fc.integer({ min: -14 * 60, max: 14 * 60 }), fc.integer({ min: 0, max: 9 })).map(([ago, offsetMin, digits]) => written(NOW_NS - ago, offsetMin, digits)) },
  { weight: 1, arbitrary: fc.constant(null) },
  { weight: 1, arbitrary: fc.constant(undefined) },
  { weight: 1, arbitrary: fc.constantFrom('yesterday', 17) },
);

function written(ns: bigint, offsetMin: number, digits: number): string {
  const truncated = ns - (ns % 10n ** BigInt(9 - digits));
  const ms = Number(truncated / 1_000_000n);
  const local = new Date(ms + offsetMin * 60_000).toISOString().slice(0, 19);
  const fraction = (truncated % 1_000_000_000n).toString().padStart(9, '0').slice(0, digits);
  const abs = Math.abs(offsetMin);
  const zone = offsetMin === 0 ? 'Z' : `${offsetMin < 0 ? '-' : '+'}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
  return `${local}${digits > 0 ? `.${fraction}` : ''}${zone}`;
}

const deviceRecords = fc.record(
  {
    seen_at: reportTimes,
    capabilities: fc.oneof(fc.constant(['reboot', 'wake_up']), fc.constant(['reboot']), fc.constant([]), fc.constant(['gps']), fc.constant('reboot')),
    battery: fc.oneof(fc.integer({ min: 0, max: 100 }), fc.integer({ min: 0, max: 100 }).map(String), fc.constant(null)),
    fw: fc.record({ version: fc.constantFrom('1.0.2', '2.0.0-beta', '2.1') }),
    tags: fc.subarray(['night', 'east', 'West']),
    fleet: fc.integer({ min: 0, max: FLEETS.length - 1 }),
  },
  { requiredKeys: ['fleet'] },
);

const worlds: fc.Arbitrary<World> = fc.array(deviceRecords, { maxLength: 40 }).map((records) => {
  const fleetOf = new Map<string, string>();
  const devices = records.map(({ fleet, ...members }, i) => {
    const hardware_id = `HW-${String(i).padStart(4, '0')}`;
    fleetOf.set(hardware_id, FLEETS[fleet]!.id);
    // a record with a member left out has no such member at all, as a service leaving out empty members sends it
    return Object.fromEntries(Object.entries({ hardware_id, ...members }).filter(([, value]) => value !== undefined));
  });
  return { devices, fleetOf };
});

/** The service over a world: the devices list (its fleet_id filter, pages of the size asked), the fleets list. */
function serviceOver(world: World): SelectionService {
  const pages = <T>(items: T[]) => (cursor: string | undefined, limit: number): Promise<Page<T>> => {
    const from = Number(cursor ?? 0);
    const next = from + limit;
    return Promise.resolve({ data: items.slice(from, next), has_more: next < items.length, next_cursor: next < items.length ? String(next) : null });
  };
  return {
    list: ((operationId: string, options: { query?: Record<string, string | undefined> }, paging: PageOptions) => {
      if (operationId === 'listFleets') return paginate(pages(FLEETS), paging);
      const fleet = options.query?.fleet_id;
      return paginate(pages(world.devices.filter((d) => fleet === undefined || world.fleetOf.get(d.hardware_id as string) === fleet)), paging);
    }) as SelectionService['list'],
    lastReport: () => Promise.reject(new Error('the device records carry their report time')),
    readsAtOnce: () => 1,
  };
}

describe('a selection over random worlds', () => {
  it('keeps exactly what the reference selects, and counts apart exactly what it cannot decide', async () => {
    await fc.assert(
      fc.asyncProperty(worlds, expressions, fc.integer({ min: 1, max: 7 }), async (world, expression, pageSize) => {
        const selection = parseSelection(expression.text, '--where');
        // printing and reading back gives the same selection
        expect(parseSelection(printSelection(selection), '--where')).toEqual(selection);
        const service = serviceOver(world);
        const selector = await deviceSelector(service, selection, {
          nowMs: NOW_MS,
          staleAfterMs: Number(STALE_AFTER_NS / 1_000_000n),
          reportTime: { field: 'seen_at', source: 'flag' },
          signal: new AbortController().signal,
        });
        const kept: string[] = [];
        for await (const device of service.list('listDevices', { query: selector.query }, { limit: pageSize, all: true, select: (page) => selector.keep(page) })) {
          kept.push((device as { hardware_id: string }).hardware_id);
        }
        const expected = world.devices.filter((d) => expression.truth(d, world) === true).map((d) => d.hardware_id as string);
        const undecided = world.devices.filter((d) => expression.truth(d, world) === undefined).length;
        expect(kept, expression.text).toEqual(expected);
        expect(selector.undecided.count, expression.text).toBe(undecided);
      }),
      { seed: Number(process.env.FLEETCTL_SELECT_SEED ?? 37_006), numRuns: Number(process.env.FLEETCTL_SELECT_RUNS ?? 300) },
    );
  });
});
