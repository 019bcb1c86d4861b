// Where the spinner hooks in: every request (its token, its retries), every prompt (which pushes it away).
import { describe, expect, it, vi } from 'vitest';
import type { PassThrough } from 'node:stream';
import { setTimeout as wait } from 'node:timers/promises';
import { main } from '../../src/main.js';
import { ApiClient } from '../../src/api/client.js';
import { createTransport } from '../../src/http/transport.js';
import { silentTracer } from '../../src/http/trace.js';
import { DEFAULT_RETRY_POLICY } from '../../src/shared/retry.js';
import { operation } from '../../src/openapi/operations.js';
import { createPrompter } from '../../src/io/prompter.js';
import { IOStreams, type TerminalEnv } from '../../src/io/streams.js';
import { SPINNER_DELAY_MS, type Activity, type ShowSpinner } from '../../src/io/spinner.js';
import { BASE_URL, newMockAgent, page, problem, stubApi, stubToken } from '../support/mock-http.js';
import { ciEnv, tempConfigDir } from '../support/cli.js';
import { FakeClock } from '../support/fake-clock.js';

/** An activity that records every wait and every change of its text, drawing nothing. */
function recordingActivity() {
  const texts: string[] = [];
  const activity: Activity = {
    during: (text, work) => {
      texts.push(`start ${text}`);
      return work({ update: (next) => texts.push(`text ${next}`) }).finally(() => texts.push(`end ${text}`));
    },
    hold: () => () => undefined,
  };
  return { activity, texts };
}

/** Test streams on a terminal whose every wait is recorded, noting a wait that ended after output began. */
function recordedIO(env: NodeJS.ProcessEnv) {
  const io = IOStreams.forTest({ tty: true, env: env as TerminalEnv });
  const texts: string[] = [];
  const during = io.activity.during.bind(io.activity);
  vi.spyOn(io.activity, 'during').mockImplementation((text, work, signal) => {
    texts.push(`start ${text}`);
    return during(text, work, signal).finally(() => texts.push(`end ${text}${io.stdout() === '' ? '' : ' (after output!)'}`));
  });
  return { io, texts };
}

describe('a request is one wait', () => {
  it('devices list: the token fetch inside the call, each with its own text; the table comes after both ended', async () => {
    const agent = newMockAgent();
    stubToken(agent, { scope: 'devices_read' });
    stubApi(agent, { path: '/v1/devices', body: page([{ id: 'd1', hardware_id: 'HW-1' }]) });
    const env = ciEnv(tempConfigDir());
    const { io, texts } = recordedIO(env);
    const code = await main(['node', 'fleetctl', 'devices', 'list', '--columns', 'hardware_id'], { io, env, dispatcher: agent, signal: new AbortController().signal });
    expect(code).toBe(0);
    expect(texts).toEqual([
      'start GET /v1/devices',
      'start Requesting an access token',
      'end Requesting an access token',
      'start GET /v1/devices',
      'end GET /v1/devices',
      'end GET /v1/devices',
    ]);
    expect(io.stdout()).toContain('HW-1');
  });

  it('--sandbox: starting the embedded sandbox is a wait of its own, before the token and the call', async () => {
    const env = { FLEETCTL_CONFIG_DIR: tempConfigDir() };
    const { io, texts } = recordedIO(env);
    const code = await main(['node', 'fleetctl', '--sandbox', 'fleets', 'list', '--limit', '1'], { io, env, signal: new AbortController().signal });
    expect(code).toBe(0);
    expect(texts.slice(0, 3)).toEqual(['start Starting the embedded sandbox', 'end Starting the embedded sandbox', 'start GET /v1/fleets']);
  });

  it('a retry says so while it waits, then the text is the request again', async () => {
    const agent = newMockAgent();
    stubApi(agent, { path: '/v1/devices', status: 503, body: problem(503, 'service.unavailable', 'down'), headers: { 'retry-after': '2' } });
    stubApi(agent, { path: '/v1/devices', body: page([]) });
    const { activity, texts } = recordingActivity();
    const clock = new FakeClock();
    const api = new ApiClient({
      baseUrl: BASE_URL,
      transport: await createTransport({ timeoutMs: 5000, tracer: silentTracer, dispatcher: agent }),
      tokens: { accessToken: async () => 'tok', invalidate: () => undefined },
      clock,
      tracer: silentTracer,
      retry: DEFAULT_RETRY_POLICY,
      operation: (id) => operation(id),
      activity,
    });
    await api.call('listDevices');
    expect(texts).toEqual(['start GET /v1/devices', 'text GET /v1/devices: retrying in 2 s after HTTP 503', 'text GET /v1/devices', 'end GET /v1/devices']);
    expect(clock.sleeps).toEqual([2000]);
  });
});

describe('a prompt owns the terminal', () => {
  it('a spinner under way goes while the prompt is open, and may come back after the answer', async () => {
    const shown: string[] = [];
    let visible = 0;
    const showSpinner: ShowSpinner = async (text) => {
      shown.push(text);
      visible++;
      return { setText() {}, stop: () => void visible-- };
    };
    const io = IOStreams.forTest({ tty: true, showSpinner });
    let finish!: () => void;
    const request = io.activity.during('GET /v1/devices', () => new Promise<void>((resolve) => (finish = resolve)));
    await wait(SPINNER_DELAY_MS + 50);
    expect(visible).toBe(1);
    const answer = createPrompter(io).confirm('Reboot 3 devices?');
    // the prompt library loads on first use, which takes a while on a busy machine: wait for the question
    for (let waited = 0; !io.stderr().includes('Reboot 3 devices?') && waited < 10_000; waited += 20) await wait(20);
    expect(io.stderr()).toContain('Reboot 3 devices?');
    expect(visible).toBe(0);
    (io.in as PassThrough).write('y\n');
    await expect(answer).resolves.toBe(true);
    await wait(SPINNER_DELAY_MS + 50);
    expect(visible).toBe(1);
    finish();
    await request;
    expect(visible).toBe(0);
    expect(shown).toEqual(['GET /v1/devices', 'GET /v1/devices']);
  });
});
