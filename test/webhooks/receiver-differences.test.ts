// A receiver that loses nothing: what the spec allows is acknowledged (2xx) and reported with how it differs from
// fleetctl's document (payload properties a real service names otherwise, types fleetctl does not know); only
// what the spec rules out is refused. strict keeps the document as the rule, for testing one's own producer.
import { describe, expect, it } from 'vitest';
import { readEnvelope } from '../../src/webhooks/envelope-reading.js';
import { event, KEY, post, receiver } from './receiver-fixtures.js';

/** A journey.closed as a service that names its coordinates its own way sends it. */
function journeyWithOtherNames(): Record<string, unknown> {
  const e = JSON.parse(JSON.stringify(event('journey.closed'))) as { data: Record<string, unknown> };
  const { startLatitude, startLongitude, endLatitude, endLongitude, ...rest } = e.data;
  e.data = { ...rest, startLat: startLatitude, startLon: startLongitude, endLat: endLatitude, endLon: endLongitude };
  return e;
}
const RENAMED = ['data lacks startLatitude, startLongitude, endLatitude, endLongitude', 'data has startLat, startLon, endLat, endLon, which the document does not name'];

describe('receiver: what the spec allows is acknowledged', () => {
  it('a payload with renamed properties: 200, reported once with the difference, de-duplicated as any other', async () => {
    const { r, events, rejects } = await receiver();
    const journey = journeyWithOtherNames();
    const res = await post(r.url, journey, { 'idempotency-key': 'd-1' });
    expect([res.status, res.json()]).toEqual([200, { status: 'accepted', id: journey.id }]);
    expect(events).toHaveLength(1);
    expect(events[0]!.event).toEqual(journey);
    expect(events[0]!.differences).toEqual(RENAMED);
    const again = await post(r.url, journey, { 'idempotency-key': 'd-2' });
    expect([again.status, again.json().status]).toEqual([200, 'duplicate']);
    expect(events).toHaveLength(1);
    expect(rejects.map((x) => x.status)).toEqual([200]);
  });

  it('an event type fleetctl does not know: 200, its payload not compared', async () => {
    const { r, events } = await receiver();
    const other = { ...event(), type: 'com.example.fleet.renamed', data: { fleetId: 'f-1', title: 'Vans' } };
    expect((await post(r.url, other)).status).toBe(200);
    expect(events[0]!.event).toEqual(other);
    expect(events[0]!.differences).toEqual([
      'type "com.example.fleet.renamed" is not one fleetctl knows (live.gps, journey.closed, alarm.triggered, event.generic, media.ready)',
    ]);
  });

  it('a missing or wrong key is still 401, whatever the body', async () => {
    const { r, events } = await receiver();
    expect((await post(r.url, journeyWithOtherNames(), { 'x-webhook-key': 'nope' })).status).toBe(401);
    expect((await post(r.url, { ...event(), type: 'x.y' }, { 'x-webhook-key': `${KEY}x` })).status).toBe(401);
    expect(events).toHaveLength(0);
  });

  it('strict: the renamed payload and the unknown type are refused with 400, as the document has it', async () => {
    const { r, events } = await receiver({ strict: true });
    const renamed = await post(r.url, journeyWithOtherNames());
    expect([renamed.status, renamed.json().error]).toEqual([400, 'invalid CloudEvents envelope: data.startLatitude: is required']);
    const unknown = await post(r.url, { ...event(), type: 'x.y' });
    expect(unknown.status).toBe(400);
    expect(unknown.json().error).toMatch(/^invalid CloudEvents envelope: type: must be one of live.gps/);
    expect(events).toHaveLength(0);
    expect((await post(r.url, event('journey.closed'))).status).toBe(200);
    expect(events[0]!.differences).toEqual([]);
  });
});

describe('readEnvelope: the differences named', () => {
  const read = (body: unknown, contentType = 'application/cloudevents+json') => readEnvelope(body, { contentType });
  const differences = async (body: unknown, contentType?: string) => {
    const reading = await read(body, contentType);
    if (!reading.ok) throw new Error(reading.reason);
    return reading.differences;
  };

  it.each([
    ['a valid envelope', () => event('alarm.triggered'), []],
    ['an extra payload property', () => ({ ...event('media.ready'), data: { ...event('media.ready').data, sizeBytes: 10 } }), [
      'data has sizeBytes, which the document does not name',
    ]],
    ['a value the document words otherwise', () => ({ ...event('media.ready'), data: { ...event('media.ready').data, channel: 'front' } }), [
      'data.channel: must be an integer',
    ]],
    ['an envelope attribute the document words otherwise', () => ({ ...event(), time: 'yesterday' }), ['time: must be a valid date-time']],
    ['no data at all', () => ({ ...event(), data: undefined }), ['data: is required']],
    ['a nested difference', () => {
      const e = JSON.parse(JSON.stringify(event('alarm.triggered')));
      e.data.locations[0] = { lat: 1, lon: 2, utc: e.data.locations[0].utc };
      return e;
    }, ['data.locations[0].latitude: is required']],
  ])('%s', async (_name, body, expected) => {
    expect(await differences(body())).toEqual(expected);
  });

  it('a content type other than CloudEvents structured mode is named, the envelope still read', async () => {
    expect(await differences(event(), 'application/json')).toEqual(['content type "application/json", not application/cloudevents+json']);
  });

  it('names at most eight properties of a long list, and cuts long names', async () => {
    const e = event('live.gps');
    const data = Object.fromEntries([...Array.from({ length: 12 }, (_, i) => [`x${i}`, i]), ['y'.repeat(500), 1]]);
    const [line] = await differences({ ...e, data: { ...e.data, ...data } });
    expect(line).toBe(`data has x0, x1, x2, x3, x4, x5, x6, x7 and 5 more, which the document does not name`);
  });

  it('refuses only what the spec rules out: a null attribute is absent', async () => {
    expect(await read({ ...event(), specversion: null })).toEqual({ ok: false, reason: 'invalid CloudEvents envelope: specversion: is required' });
    expect(await read('text')).toEqual({ ok: false, reason: 'invalid CloudEvents envelope: the body is not a JSON object' });
  });
});
