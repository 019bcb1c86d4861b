// What a careless or hostile user types: families of bad values, mixed with plausible ones so that commands
// get past their first check and meet the sandbox.
import fc from 'fast-check';
import type { ArgumentSpec, OptionSpec } from './tree.js';

/** Paths and ids the suite prepared: fixtures in a temporary folder, records of the in-process sandbox. */
export interface World {
  files: {
    ids: string;
    /** 300,000 ids: more than a call's arguments can hold. */
    manyIds: string;
    idsWithNul: string;
    binary: string;
    huge: string;
    oneLongLine: string;
    deepJson: string;
    justTooDeepJson: string;
    driver: string;
    desired: string;
    prototypeKeys: string;
    empty: string;
    directory: string;
    /** A named pipe nobody writes to: reading it waits until the command is interrupted. */
    fifo: string;
  };
  uuids: string[];
  hardwareIds: string[];
  eventIds: string[];
  mediaIds: string[];
}

const LONG_X = 'x'.repeat(100_000);
const LONG_NINES = '9'.repeat(5_000);
const LONG_HEADERISH = 'a'.repeat(70_000);

const EMPTY_AND_WHITESPACE = ['', ' ', '\t', '\n', '\u00a0', '\u2003', '\u3000', ' x ', '\r\n'];
const LOOK_ALIKES = ['НW-000001', 'HW‐000001', 'ＨＷ－０００００１', 'HW-0\u200b00001', '２４h', '７d', 'ｈｔｔｐｓ://x', 'e\u0301', 'ﬁ', '𝟏𝟐𝟑'];
const CONTROL = ['\u001b[31mX', '\u001b]0;owned\u0007', '\u0000', '\u0007', '\r', '\u009b2J', '\u202eevil', 'a\u0000b', '\ud800', '\udfff-lone'];
const LONG = [LONG_X, LONG_NINES, LONG_HEADERISH, `${'/'.repeat(5000)}x`, '🚚'.repeat(3000)];
const PROTOTYPE_KEYS = ['__proto__', 'constructor', 'toString', 'prototype', 'hasOwnProperty', 'valueOf', '__defineGetter__'];
const NUMBERS_AT_EDGES = [
  '0', '-0', '-1', '1', '2', '499', '500', '501', '64', '65', '65535', '65536', '2147483647', '2147483648',
  '9007199254740993', '1e3', '1e308', '1e309', 'NaN', 'Infinity', '-Infinity', '0x10', '1.5', '.5', '1_000', '0001', '+1',
];
const DATES_AT_EDGES = [
  '0000-01-01', '0000-01-01T00:00:00Z', '9999-12-31T23:59:59Z', '1970-01-01T00:00:00Z', '2024-02-29', '2023-02-29',
  '2024-13-01', '2024-05-01T25:00:00Z', '2024-05-01T08:00:00', '9999999999d', '99999999999h', '9999999999w', '1000000000000m', '36500d', '36501d', '0s', '-1d', '1e3d',
  '2038-01-19T03:14:08Z', '+275760-09-13T00:00:00Z', '24h', '7d', '30m', '1.5h', '2024-05-01T08:00:00+14:00',
];

/** Values that are wrong in every way we know, whatever the option. */
export function hostileValue(world: World): fc.Arbitrary<string> {
  const f = world.files;
  return fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...EMPTY_AND_WHITESPACE) },
    { weight: 2, arbitrary: fc.constantFrom(...LOOK_ALIKES) },
    { weight: 3, arbitrary: fc.constantFrom(...CONTROL) },
    { weight: 2, arbitrary: fc.constantFrom(...LONG) },
    { weight: 2, arbitrary: fc.constantFrom(...PROTOTYPE_KEYS) },
    { weight: 3, arbitrary: fc.constantFrom(...NUMBERS_AT_EDGES) },
    { weight: 2, arbitrary: fc.constantFrom(...DATES_AT_EDGES) },
    { weight: 2, arbitrary: fc.constantFrom('/dev/zero', '/dev/null', '/dev/urandom', '/proc/self/status', '/', f.fifo, f.directory, f.huge, f.deepJson, f.binary) },
    { weight: 2, arbitrary: fc.string({ maxLength: 12 }) },
    { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 12 }) },
    // lone surrogates and every other UTF-16 code unit
    { weight: 1, arbitrary: fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code)), maxLength: 6 }) },
  );
}

interface Family {
  /** Values that work (a real id, a date in range): the command gets past its checks and meets the sandbox. */
  good: string[];
  /** Near misses of this kind of value: the edges where a check is most likely wrong. */
  edges: string[];
}

/** The values an option or argument of this name takes, good and at the edges. */
function familyFor(name: string, placeholder: string, world: World): Family {
  const f = world.files;
  const strange = [...CONTROL, ...PROTOTYPE_KEYS, '', ' ', LONG_X];
  if (/hardware/.test(name)) return { good: world.hardwareIds, edges: ['HW/1', '../x', '%2F', 'HW?x#y', 'HW-日本', ...strange] };
  if (name === 'event-id') return { good: world.eventIds, edges: ['bm90LWFuLWV2ZW50', '!!', ...strange] };
  if (name === 'media-ids') return { good: world.mediaIds, edges: ['no-such-media', ...strange] };
  if (name === 'resume' || name === 'run-id') return { good: ['20240601T120000Z-3f9a1c'], edges: ['../etc', 'x'.repeat(101), ...strange] };
  if (/^(from-file|input|file|state|journal)$/.test(name)) {
    return {
      good: [f.ids, f.driver, f.desired, f.empty, '-'],
      edges: [f.manyIds, f.idsWithNul, f.binary, f.huge, f.oneLongLine, f.deepJson, f.justTooDeepJson, f.prototypeKeys, f.directory, f.fifo, 'missing.json', '/dev/zero', '/dev/urandom', '/proc/self/status'],
    };
  }
  if (name === 'dir') return { good: ['media', 'a/b/c'], edges: ['', f.directory, f.ids, ...CONTROL] };
  if (/url/.test(name) || placeholder === 'url') {
    const edges = ['ftp://x', 'http://', 'https://[::1', 'javascript:alert(1)', 'http://user:pw@127.0.0.1:9/', `https://hooks.example.com/${LONG_X}`, ...strange];
    return { good: ['https://hooks.example.com/x', 'http://127.0.0.1:9/hooks'], edges };
  }
  if (name === 'key-env') return { good: ['FLEETCTL_WEBHOOK_KEY'], edges: ['NO_SUCH_VARIABLE', ...strange] };
  if (placeholder === 'uuid' || /(^|-)id$|^org$|organization/.test(name)) {
    return { good: world.uuids, edges: ['00000000-0000-0000-0000-000000000000', world.uuids[0]!.toUpperCase(), `${world.uuids[0]!} `, ...strange] };
  }
  if (name === 'since') return { good: ['24h', '7d', '30m', '2h', '2024-05-01T08:00:00Z'], edges: DATES_AT_EDGES };
  if (name === 'from') return { good: ['7d', '30d', '24h', '2024-05-01T08:00:00Z', '2024-05-01'], edges: DATES_AT_EDGES };
  if (name === 'to' || placeholder === 'time') return { good: ['1h', '1m', '2024-05-02T08:00:00Z'], edges: DATES_AT_EDGES };
  if (/interval/.test(name)) return { good: ['1s', '5s', '0.5s'], edges: DATES_AT_EDGES };
  if (/limit|max-items|count|concurrency|max-devices|^devices$|seed|latency|ttl|propagation|rate|^n$|retries|retry-wait|timeout/.test(name)) {
    return { good: ['1', '2', '3', '10', '50', '0'], edges: NUMBERS_AT_EDGES };
  }
  if (name === 'port') return { good: ['0'], edges: ['65536', '-1', 'http', ...NUMBERS_AT_EDGES] };
  if (name === 'host') return { good: ['127.0.0.1', '::1'], edges: ['', ' ', '0.0.0.0 x', ...CONTROL] };
  if (name === 'raw-field' || name === 'field') {
    return { good: ['limit=2', 'name=x', 'first_name=A', 'status=inactive', 'a=[1,2]'], edges: [...PROTOTYPE_KEYS.map((key) => `${key}=x`), `a=${'['.repeat(100_000)}`, '=x', 'x', `x=${LONG_X}`] };
  }
  if (name === 'header') {
    const edges = [...PROTOTYPE_KEYS.map((key) => `${key}: x`), `X-A: ${LONG_HEADERISH}`, 'X-B: a\u0000b', 'X-C: 日本', 'Authorization: Bearer x', 'no colon'];
    return { good: ['X-Trace: abc', 'Idempotency-Key: k1'], edges };
  }
  if (name === 'method') return { good: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'], edges: ['get', 'FETCH', ...strange] };
  if (name === 'path') {
    const edges = ['/v1/nope', 'v1/vehicles', '/v1/devices/%00', '/v1/devices/..%2F..%2Fx', `/v1/fleets?cursor=${LONG_X}`, ...strange];
    return { good: ['/v1/fleets', '/v1/devices?limit=2', '/v1/drivers', '/v1/devices/HW-000001/commands/reboot'], edges };
  }
  if (name === 'columns') return { good: ['id,name', 'hardware_id'], edges: [...PROTOTYPE_KEYS, 'a.b.c', ','] };
  if (name === 'shell') return { good: ['bash', 'zsh', 'fish'], edges: ['powershell', ...strange] };
  if (name === 'key' && placeholder === 'key') return { good: ['k', 'whk_not-a-real-key'], edges: strange };
  if (name === 'key') return { good: ['base_url', 'auth_url', 'client_id', 'client_secret', 'scopes', 'organization_id'], edges: strange };
  if (/^(type|types|topics)$/.test(name)) {
    return { good: ['events', 'alarms', 'media', 'live_gps', 'journeys', 'alarm.triggered', 'live.gps', 'media.ready', 'events,alarms'], edges: ['reboot', 'events,,', ...strange] };
  }
  if (/scope/.test(name)) return { good: ['devices_read', 'thirdparty.api.devices_read'], edges: ['nope', ...strange] };
  if (name === 'profile') return { good: ['default', 'ci'], edges: strange };
  if (name === 'if-match') return { good: ['"e1"', 'e1', '*'], edges: ['W/"x"', 'a,b', ...strange] };
  if (name === 'email') return { good: ['ada@example.com'], edges: ['ada@', ...strange] };
  if (name === 'phone') return { good: ['+44 20 7946 0000'], edges: strange };
  if (name === 'value') return { good: ['http://127.0.0.1:4010', 'sandbox-admin', '3f2b8c1e-0000-4000-8000-000000000000'], edges: ['-', ...strange] };
  // free text: names, numbers of a licence, an employee id
  return { good: ['Ada', 'Lovelace', 'X-1234', 'x'], edges: strange };
}

/** A value for an option or argument: mostly good (so the command runs), often at the edges, now and then anything. */
export function valueFor(name: string, placeholder: string, choices: string[] | undefined, world: World): fc.Arbitrary<string> {
  const family = familyFor(name, placeholder, world);
  return fc.oneof(
    { weight: 5, arbitrary: fc.constantFrom(...(choices ?? family.good)) },
    { weight: 3, arbitrary: fc.constantFrom(...family.edges) },
    { weight: 1, arbitrary: hostileValue(world) },
  );
}

export function optionValue(option: OptionSpec, world: World): fc.Arbitrary<string> {
  return valueFor(option.name, option.placeholder, option.choices, world);
}

export function argumentValue(argument: ArgumentSpec, world: World): fc.Arbitrary<string> {
  return valueFor(argument.name, '', argument.choices, world);
}

/** What stdin holds: nothing, ids, JSON, NULs, a great deal. It always ends. */
export function stdinValue(world: World): fc.Arbitrary<string> {
  return fc.oneof(
    fc.constant(''),
    fc.constantFrom('HW-000001\nHW-000004\n', '\u0000\n', '{"first_name":"A","last_name":"B"}', '{"topics":[]}', 'not json', `${'['.repeat(200_000)}`),
    fc.constant(Array.from({ length: 20_000 }, (_, i) => `HW-${i}`).join('\n')),
    hostileValue(world),
  );
}

/** Command-line tokens that belong to no option: unknown flags, stray words, the end of options. */
export const strayToken: fc.Arbitrary<string> = fc.constantFrom('--no-such-flag', '-Z', '--\u001b[31m', `--${LONG_X}`, 'extra', '--', '-', '--=x', '---x');
