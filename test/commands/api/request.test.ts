import { describe, expect, it } from 'vitest';
import { apiRequestOptions, type RawApiFlags } from '../../../src/commands/api/request.js';

describe('fleetctl api: arguments', () => {
  const cases: { name: string; method?: string; path?: string; flags?: RawApiFlags; want?: object; error?: string }[] = [
    { name: 'GET with fields as the query', method: 'get', path: '/v1/vehicles?fleet_id=f', flags: { rawField: ['limit=2', 'fleet_id=g'] }, want: { method: 'GET', path: '/v1/vehicles', query: { fleet_id: ['f', 'g'], limit: ['2'] }, fields: undefined } },
    { name: 'a path without its slash', method: 'GET', path: 'v1/fleets', want: { path: '/v1/fleets', query: {} } },
    { name: 'PUT fields are the body, -F typed', method: 'PUT', path: '/v1/drivers/x', flags: { rawField: ['status=inactive', 'phone=123'], field: ['n=5', 'b=true', 'z=null', 'a=[1,2]'] }, want: { fields: { status: 'inactive', phone: '123', n: 5, b: true, z: null, a: [1, 2] }, query: {} } },
    { name: 'with --input the fields go to the query', method: 'POST', path: '/v1/drivers', flags: { input: '-', rawField: ['x=1'] }, want: { input: '-', fields: undefined, query: { x: ['1'] } } },
    { name: 'headers and the idempotency key', method: 'POST', path: '/v1/devices/HW-1/commands/reboot', flags: { header: ['X-Trace: abc'], idempotencyKey: 'k1' }, want: { headers: { 'X-Trace': 'abc', 'Idempotency-Key': 'k1' } } },
    { name: 'paginate', method: 'GET', path: '/v1/fleets', flags: { paginate: true }, want: { paginate: true } },
    { name: 'nothing given', error: 'give a METHOD and a PATH, e.g. fleetctl api GET /v1/fleets' },
    { name: 'bad method', method: 'FETCH', path: '/v1/fleets', error: 'METHOD must be one of GET, POST, PUT, PATCH, DELETE, got "FETCH"' },
    { name: 'a URL', method: 'GET', path: 'https://evil.example/v1/fleets', error: 'PATH is a path below the base URL' },
    { name: 'spaces', method: 'GET', path: '/v1/a b', error: 'PATH must not contain spaces' },
    { name: 'input on GET', method: 'GET', path: '/v1/fleets', flags: { input: 'x.json' }, error: '--input: a GET request has no body' },
    { name: 'paginate on POST', method: 'POST', path: '/v1/drivers', flags: { paginate: true }, error: '--paginate works with GET only' },
    { name: 'field without =', method: 'GET', path: '/v1/fleets', flags: { rawField: ['limit'] }, error: '-f takes key=value, got "limit"' },
    { name: 'bad limit', method: 'GET', path: '/v1/fleets', flags: { rawField: ['limit=900'] }, error: 'the limit parameter must be from 1 to 500, got 900' },
    { name: 'limit in the path', method: 'GET', path: '/v1/fleets?limit=abc', flags: {}, error: 'the limit parameter must be a whole number from 1 to 500, got "abc"' },
    { name: 'bad JSON in -F', method: 'PUT', path: '/v1/x', flags: { field: ['a={x'] }, error: '-F value "{x" looks like JSON but is not' },
    { name: 'bad header', method: 'GET', path: '/v1/fleets', flags: { header: ['no colon'] }, error: "-H takes 'Name: value', got \"no colon\"" },
    { name: 'Authorization is ours', method: 'GET', path: '/v1/fleets', flags: { header: ['Authorization: Bearer x'] }, error: '-H Authorization: fleetctl sets this header itself' },
    { name: 'long key', method: 'POST', path: '/v1/x', flags: { idempotencyKey: 'k'.repeat(201) }, error: '--idempotency-key must be at most 200 characters, got 201' },
    { name: 'long key as a header', method: 'POST', path: '/v1/x', flags: { header: [`Idempotency-Key: ${'k'.repeat(201)}`] }, error: '-H Idempotency-Key must be at most 200 characters' },
    { name: 'a key that cannot travel as a header', method: 'POST', path: '/v1/x', flags: { idempotencyKey: 'clé-日' }, error: '--idempotency-key "clé-日" must be printable ASCII' },
    { name: 'quoted input is visible and cut', method: 'FETCH\u001b[2J'.padEnd(300, 'x'), path: '/v1/fleets', error: 'got "FETCH\\x1b[2J' },
    { name: 'key twice', method: 'POST', path: '/v1/x', flags: { header: ['idempotency-key: a'], idempotencyKey: 'b' }, error: 'give the Idempotency-Key once' },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const parse = () => apiRequestOptions(c.method, c.path, c.flags ?? {});
      if (c.error) expect(parse).toThrow(c.error);
      else expect(parse()).toMatchObject(c.want!);
    });
  }
});

describe('fleetctl api: names the user chooses never meet Object.prototype', () => {
  it.each(['__proto__', 'constructor', 'toString', 'hasOwnProperty'])('-f %s=x is a query parameter like any other', (name) => {
    const request = apiRequestOptions('GET', `/v1/fleets?${name}=a`, { rawField: [`${name}=x`] });
    expect(Object.getOwnPropertyDescriptor(request.query, name)?.value).toEqual(['a', 'x']);
    expect(Object.keys(request.query)).toEqual([name]);
  });

  it.each(['__proto__', 'constructor'])('-f %s=x of a PUT is a body member, and -H %s: x a header', (name) => {
    const request = apiRequestOptions('PUT', '/v1/drivers/x', { rawField: [`${name}=x`], header: [`${name}: y`] });
    expect(JSON.stringify(request.fields)).toBe(`{"${name}":"x"}`);
    expect(Object.entries(request.headers)).toEqual([[name, 'y']]);
  });

  it('a message quoting a long value cuts it', () => {
    expect(() => apiRequestOptions('GET', '/v1/fleets', { rawField: ['x'.repeat(100_000)] })).toThrow(/^-f takes key=value, got "x{79}… \(100000 characters\)"$/);
  });

  it('-F JSON nested deeper than the limit is refused before parsing', () => {
    expect(() => apiRequestOptions('PUT', '/v1/x', { field: [`a=${'['.repeat(100_000)}`] })).toThrow('-F value "[[[');
  });
});
