// A world that moves (--telemetry-rate): device reports at their own wire time, some late, seen in the list
// endpoints and delivered as webhooks to subscribers.
import { afterEach, describe, expect, it } from 'vitest';
import { createApp } from '../../src/sandbox/sandbox-app.js';
import { MovingWorld, type DeviceReport } from '../../src/sandbox/moving-world.js';
import { buildEnvelope, startReceiver, validateEnvelope, type ReceivedDelivery } from '../../src/webhooks/index.js';
import type { EmittedEvent } from '../../src/sandbox/hooks.js';
import { startHarness } from './harness.js';

const NOW = Date.UTC(2026, 2, 1, 12, 0, 0);

function appAt(nowMs: () => number, devices = 40) {
  return createApp({
    seed: 5, devices, anchorMs: NOW, secret: Buffer.alloc(32, 1), scenario: null, saved: null, allowPrivateWebhooks: false,
    tokenTtlSeconds: 60, telemetryRate: 0, journalSize: 10, now: () => new Date(nowMs()), log: () => undefined,
  }).app;
}

describe('MovingWorld', () => {
  it('makes devices report at their wire time: state, live position, last_seen_at, now and then an event; one in ten late', () => {
    let now = NOW;
    const app = appAt(() => now);
    const heard: EmittedEvent[] = [];
    app.hooks.onEvent((e) => heard.push(e));
    const world = new MovingWorld(app, 0);
    const reports: DeviceReport[] = [];
    for (let i = 0; i < 400; i++) {
      now += 1000;
      const r = world.report()!;
      reports.push(r);
      const lag = now - r.wireMs;
      if (r.late) expect(lag >= 30_000 && lag <= 300_000, `late by ${lag} ms`).toBe(true);
      else expect(lag >= 0 && lag <= 2_000, `on time, ${lag} ms`).toBe(true);
    }
    const late = reports.filter((r) => r.late);
    expect(late.length).toBeGreaterThan(15);
    expect(late.length).toBeLessThan(80);
    // a device shows its latest report, never an older late one
    const latest = new Map<string, DeviceReport>();
    for (const r of reports) if (!latest.has(r.hardwareId) || latest.get(r.hardwareId)!.wireMs < r.wireMs) latest.set(r.hardwareId, r);
    for (const [hardwareId, r] of latest) {
      const device = app.world.deviceByHardwareId(hardwareId)!;
      const telemetry = app.world.telemetry.get(device);
      expect(telemetry.lastReported).toEqual(r.state);
      expect(device.last_seen_at).toBe(new Date(r.wireMs).toISOString());
      if (device.hasLivePosition) expect(telemetry.livePosition).toEqual(r.position);
      else expect(r.position).toBeNull();
    }
    // events, late ones included, sit in time order among the seeded ones
    const withEvents = reports.filter((r) => r.event);
    expect(withEvents.length).toBeGreaterThan(50);
    for (const r of withEvents) {
      const events = app.world.telemetry.get(app.world.deviceByHardwareId(r.hardwareId)!).events;
      expect(events.map((e) => e.event_id)).toContain(r.event!.event_id);
      expect(events.map((e) => e.triggeredMs)).toEqual([...events.map((e) => e.triggeredMs)].sort((a, b) => b - a));
    }
    // devices that never reported stay silent
    for (const r of reports) expect(app.world.deviceByHardwareId(r.hardwareId)!.hardware_id).not.toBe('HW-000006');
    // subscribers hear live.gps and event.generic at wire time, with payloads a receiver accepts
    expect(heard.filter((e) => e.type === 'live.gps')).toHaveLength(reports.filter((r) => r.position).length);
    expect(heard.filter((e) => e.type === 'event.generic')).toHaveLength(withEvents.length);
    for (const e of heard.slice(0, 40)) {
      const envelope = buildEnvelope(e.type, e.record as never, { baseUrl: 'http://127.0.0.1:1', time: e.time, now: () => new Date(now) });
      expect(validateEnvelope(JSON.parse(JSON.stringify(envelope)))).toMatchObject({ ok: true });
    }
  });

  it('is the same for the same seed', () => {
    const run = () => {
      let now = NOW;
      const world = new MovingWorld(appAt(() => (now += 1000)), 0);
      return Array.from({ length: 50 }, () => world.report()).map((r) => [r!.hardwareId, r!.wireMs, r!.event?.event_id]);
    };
    expect(run()).toEqual(run());
  });
});

describe('--telemetry-rate through the API and webhooks', () => {
  const cleanups: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    while (cleanups.length) await cleanups.pop()!();
  });

  it('shows new reports in the device list and last-position, and delivers them to a subscriber as they happen', async () => {
    const got: ReceivedDelivery[] = [];
    const key = 'moving-world-test-key-0001';
    const receiver = await startReceiver({ key, onEvent: (d) => void got.push(d) });
    cleanups.push(() => receiver.close());
    const url = `${receiver.url}/hooks`;
    const started = Date.now();
    const h = await startHarness({
      devices: 12, telemetryRatePerSecond: 100, allowPrivateWebhooks: true, propagationMs: 0,
      scenario: { webhooks: [{ organization: 'root', is_enabled: true, auth_key: key, topics: [{ type: 'live_gps', url }, { type: 'events', url }] }] },
    });
    cleanups.push(() => h.close());
    const deadline = Date.now() + 15_000;
    while ((got.filter((d) => d.event.type === 'live.gps').length < 5 || !got.some((d) => d.event.type === 'event.generic')) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
    }
    const fixes = got.filter((d) => d.event.type === 'live.gps');
    expect(fixes.length).toBeGreaterThanOrEqual(5);
    expect(got.some((d) => d.event.type === 'event.generic')).toBe(true);
    const fix = fixes.at(-1)!.event as unknown as { subject: string; time: string; data: { utc: string; latitude: number } };
    expect(fix.time).toBe(fix.data.utc);
    expect(Date.parse(fix.time)).toBeGreaterThan(started - 301_000);
    const devices = (await h.call('GET', '/v1/devices?limit=50')).body.data as { hardware_id: string; last_seen_at: string | null }[];
    expect(devices.some((d) => d.last_seen_at !== null && Date.parse(d.last_seen_at) > started - 3_000)).toBe(true);
    const position = await h.call('GET', `/v1/devices/${fix.subject}/last-position`);
    expect(Date.parse(position.body.recorded_at)).toBeGreaterThan(started - 301_000);
    const health = await fetch(`${h.sb.baseUrl}/_sandbox/health`).then((r) => r.json());
    expect(health).toMatchObject({ telemetry_rate: 100 });
    // the events reported so far: at least those delivered as event.generic
    expect(health.events_reported).toBeGreaterThanOrEqual(got.filter((d) => d.event.type === 'event.generic').length);
    expect(health.events_reported).toBeGreaterThan(0);
  });

  it('keeps its rate while the event loop is busy: a late tick makes up for the time it missed', async () => {
    const app = appAt(() => Date.now());
    const world = new MovingWorld(app, 200);
    let reports = 0;
    const report = world.report.bind(world);
    world.report = () => {
      reports++;
      return report();
    };
    const started = performance.now();
    world.start();
    cleanups.push(async () => world.stop());
    await new Promise((r) => setTimeout(r, 200));
    // the loop blocked for 600 ms, as by a long answer: no tick can run meanwhile
    while (performance.now() - started < 800) {
      // busy
    }
    await new Promise((r) => setTimeout(r, 200));
    world.stop();
    const elapsedS = (performance.now() - started) / 1000;
    // counted by ticks, the blocked 600 ms would be lost (a third of what is due); by time elapsed, none is
    expect(reports).toBeGreaterThanOrEqual(Math.floor(200 * (elapsedS - 0.1)));
    expect(reports).toBeLessThanOrEqual(Math.ceil(200 * elapsedS) + 1);
  });
});
