// `webhook listen` acknowledges what the spec allows and says in one warning line how it differs from fleetctl's
// document; --strict refuses it instead. Piped and on a terminal, with the sender's text made safe.
import { describe, expect, it } from 'vitest';
import { sampleEvent } from '../../../src/webhooks/index.js';
import { listening } from './listening.js';

const BASE = 'https://api.example.com';

function deliver(url: string, body: unknown, key = 'secret'): Promise<Response> {
  return fetch(url, { method: 'POST', headers: { 'content-type': 'application/cloudevents+json', 'x-webhook-key': key }, body: JSON.stringify(body) });
}

/** A journey.closed whose coordinates are named as another service names them. */
function journeyWithOtherNames(): Record<string, unknown> & { id: string } {
  const e = sampleEvent('journey.closed', { baseUrl: BASE });
  const { startLatitude, startLongitude, endLatitude, endLongitude, ...rest } = e.data;
  return { ...e, data: { ...rest, startLat: startLatitude, startLon: startLongitude, endLat: endLatitude, endLon: endLongitude } };
}

/** stderr without the colour of its labels (a terminal gets them): the text the sender's parts are in. */
const uncoloured = (stderr: string) => stderr.replace(/\u001b\[\d+m/g, '');
const warnings = (stderr: string) => uncoloured(stderr).split('\n').filter((line) => line.startsWith('Warning:'));

describe('webhook listen: what differs from the document', () => {
  it('piped: a renamed payload is acknowledged, printed as sent, and named in one warning line', async () => {
    const l = await listening({ maxEvents: 1 }, false);
    const journey = journeyWithOtherNames();
    expect((await deliver(l.url, journey)).status).toBe(200);
    await l.done;
    expect(JSON.parse(l.f.io.stdout())).toEqual(journey);
    expect(warnings(l.f.io.stderr())).toEqual([
      `Warning: journey.closed ${journey.id} accepted, but it differs from fleetctl's document: data lacks startLatitude, startLongitude, ` +
        'endLatitude, endLongitude; data has startLat, startLon, endLat, endLon, which the document does not name',
    ]);
    expect(l.f.io.stderr()).not.toContain('secret');
  });

  it('on a terminal: an unknown type is summarised and named once; a duplicate of it warns no more', async () => {
    const l = await listening({ maxEvents: 2 }, true);
    const other = { ...sampleEvent('live.gps', { baseUrl: BASE }), type: 'com.example.trip.started', time: 1700000000, data: { tripId: 't-1' } };
    expect((await deliver(l.url, other)).status).toBe(200);
    expect((await deliver(l.url, other)).status).toBe(200);
    expect((await deliver(l.url, sampleEvent('media.ready', { baseUrl: BASE }))).status).toBe(200);
    await l.done;
    expect(l.f.io.stdout().split("\n")[0]).toBe(`1700000000  com.example.trip.started  ${other.subject!.padEnd(10)}  ${other.id}`);
    expect(warnings(l.f.io.stderr())).toEqual([
      `Warning: com.example.trip.started ${other.id} accepted, but it differs from fleetctl's document: type "com.example.trip.started" ` +
        'is not one fleetctl knows (live.gps, journey.closed, alarm.triggered, event.generic, media.ready)',
    ]);
  });

  it("the sender's text in a warning is made safe and stays on one line", async () => {
    const l = await listening({ maxEvents: 1 }, true);
    const hostile = { ...sampleEvent('live.gps', { baseUrl: BASE }), id: 'evt-\n\u001b[2J', type: 'x\u009b.y' };
    expect((await deliver(l.url, hostile)).status).toBe(200);
    await l.done;
    const stderr = l.f.io.stderr();
    expect(uncoloured(stderr)).not.toMatch(/[\u001b\u009b]/);
    expect(warnings(stderr)).toEqual([
      'Warning: x\\x9b.y evt-\\x0a\\x1b[2J accepted, but it differs from fleetctl\'s document: type "x\\x9b.y" is not one fleetctl knows ' +
        '(live.gps, journey.closed, alarm.triggered, event.generic, media.ready)',
    ]);
  });

  it('--strict: the renamed payload is refused with 400 and nothing is printed on stdout', async () => {
    const l = await listening({ strict: true }, false);
    const answer = await deliver(l.url, journeyWithOtherNames());
    expect(answer.status).toBe(400);
    expect(await answer.json()).toEqual({ error: 'invalid CloudEvents envelope: data.startLatitude: is required' });
    l.stop();
    await l.done;
    expect(l.f.io.stdout()).toBe('');
    expect(l.f.io.stderr()).toContain('Refused POST /: HTTP 400, invalid CloudEvents envelope: data.startLatitude: is required\n');
    expect(warnings(l.f.io.stderr())).toEqual([]);
  });

  it('what the spec rules out is refused either way: no specversion (400), a wrong key (401)', async () => {
    const l = await listening({}, false);
    const { specversion: _dropped, ...noVersion } = sampleEvent('live.gps', { baseUrl: BASE });
    expect((await deliver(l.url, noVersion)).status).toBe(400);
    expect((await deliver(l.url, journeyWithOtherNames(), 'wrong')).status).toBe(401);
    l.stop();
    await l.done;
    expect(l.f.io.stdout()).toBe('');
    expect(l.f.io.stderr()).toContain('Refused POST /: HTTP 400, invalid CloudEvents envelope: specversion: is required\n');
    expect(l.f.io.stderr()).toContain('Refused POST /: HTTP 401, missing or wrong X-Webhook-Key\n');
    expect(l.f.io.stderr()).not.toMatch(/secret|wrong(?! X-Webhook)/);
  });
});
