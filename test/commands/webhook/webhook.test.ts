// webhook listen / trigger: parse tables (argv → options or the exact error) and run tables against a real
// local receiver (TTY summary vs piped NDJSON, stderr messages, exit codes through the thrown errors).
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from 'undici';
import { describe, expect, it, onTestFinished } from 'vitest';
import { newWebhookListenCommand, webhookListenRun, type WebhookListenOptions } from '../../../src/commands/webhook/listen.js';
import { newWebhookTriggerCommand, webhookTriggerRun, type WebhookTriggerOptions } from '../../../src/commands/webhook/trigger.js';
import { sampleEvent, triggerSampleEvent, validateEnvelope } from '../../../src/webhooks/index.js';
import { BASE_URL, fakeDeps, parseVerb, recordRun } from '../fake-deps.js';
import { listening } from './listening.js';

describe('webhook listen: parsing', () => {
  async function parse(args: string[], env: NodeJS.ProcessEnv = {}): Promise<WebhookListenOptions> {
    const { run, calls } = recordRun<WebhookListenOptions>();
    await parseVerb(newWebhookListenCommand({ ...fakeDeps().deps, env }, run), args);
    return calls[0]!;
  }

  it.each([
    [['--key', 'k1'], {}, { host: '127.0.0.1', port: 4011, key: 'k1', previousKey: undefined, forwardTo: undefined, maxEvents: undefined, strict: false, requestTimeoutMs: 20_000 }],
    [['--key', 'k1', '--request-timeout', '5'], {}, { requestTimeoutMs: 5_000 }],
    [['--key-env', 'MY_KEY', '--port', '0', '--host', '0.0.0.0'], { MY_KEY: 'k2' }, { host: '0.0.0.0', port: 0, key: 'k2' }],
    [[], { FLEETCTL_WEBHOOK_KEY: 'k3' }, { key: 'k3', strict: false }],
    [['--strict'], { FLEETCTL_WEBHOOK_KEY: 'k3' }, { key: 'k3', strict: true }],
    [[], { FLEETCTL_WEBHOOK_KEY: 'k3', FLEETCTL_WEBHOOK_PREVIOUS_KEY: 'k0' }, { key: 'k3', previousKey: 'k0' }],
    [['--previous-key', 'k1'], { FLEETCTL_WEBHOOK_KEY: 'k3', FLEETCTL_WEBHOOK_PREVIOUS_KEY: 'k0' }, { key: 'k3', previousKey: 'k1' }],
    [['--key', 'new', '--previous-key', 'old', '--forward-to', 'http://127.0.0.1:3000/hooks', '--max-events', '2'], {}, { key: 'new', previousKey: 'old', forwardTo: 'http://127.0.0.1:3000/hooks', maxEvents: 2 }],
  ])('%j', async (args, env, expected) => {
    expect(await parse(args, env)).toMatchObject(expected);
  });

  it.each([
    [[], 'a webhook key is required'],
    [['--key', 'a', '--key-env', 'B'], 'use either --key or --key-env, not both'],
    [['--key-env', 'UNSET_VAR'], 'the environment variable "UNSET_VAR" (--key-env) is not set or empty'],
    [['--key', 'k', '--port', '70000'], '--port must be a whole number from 0 to 65535, got "70000"'],
    [['--key', 'k', '--forward-to', 'ftp://x'], '--forward-to must be an http:// or https:// URL, got "ftp://x"'],
    [['--key', 'k', '--forward-to', 'nope'], '--forward-to must be an absolute http:// or https:// URL, got "nope"'],
    [['--key', 'k', '--max-events', '0'], '--max-events must be a whole number of at least 1, got "0"'],
    [['--key', 'k', '--request-timeout', '0'], '--request-timeout must be a whole number from 1 to 3600, got "0"'],
    // a name of the user's choosing finds no variable, not Object.prototype
    [['--key-env', '__proto__'], 'the environment variable "__proto__" (--key-env) is not set or empty'],
    [['--key', 'a\u0001b'], '--key holds "\\x01" at position 2, which an HTTP header cannot carry'],
    [['--key', 'k', '--host', ''], '--host must be an address such as 127.0.0.1 or a host name, got ""'],
    [['--key', 'k', '--host', '127.0.0.1 x'], '--host must be an address such as 127.0.0.1 or a host name, got "127.0.0.1 x"'],
  ])('%j is refused: %s', async (args, message) => {
    await expect(parse(args)).rejects.toThrow(message);
  });
});

describe('webhook listen: running', () => {
  it('piped: each accepted event is one NDJSON line; duplicates and a wrong key are reported on stderr', async () => {
    const l = await listening({}, false);
    const sent = await triggerSampleEvent('live.gps', { to: l.url, key: 'secret', baseUrl: 'https://api.example.com' });
    expect(sent.outcome).toMatchObject({ status: 200 });
    // the same delivery again: acknowledged, not printed twice
    const again = await fetch(l.url, { method: 'POST', headers: sent.headers, body: JSON.stringify(sent.event) });
    expect(again.status).toBe(200);
    const wrong = await triggerSampleEvent('alarm.triggered', { to: l.url, key: 'wrong', baseUrl: 'https://api.example.com' });
    expect(wrong.outcome).toMatchObject({ status: 401 });
    l.stop();
    await l.done;
    const lines = l.f.io.stdout().trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toEqual(sent.event);
    expect(validateEnvelope(JSON.parse(lines[0]!)).ok).toBe(true);
    const stderr = l.f.io.stderr();
    expect(stderr).toMatch(/^Listening on http:\/\/127\.0\.0\.1:\d+\nPress Ctrl-C to stop\.\n/);
    expect(stderr).toContain(`Duplicate ${sent.event.id} ignored: duplicate delivery, already accepted\n`);
    expect(stderr).toContain('Refused POST /: HTTP 401, missing or wrong X-Webhook-Key\n');
    expect(stderr).toMatch(/Stopped after 1 event\(s\)\.\n$/);
    expect(stderr).not.toContain('secret');
  });

  it('on a terminal: a one-line summary per event; with -o ndjson the envelope even on a terminal', async () => {
    const l = await listening({ maxEvents: 1 }, true);
    const sent = await triggerSampleEvent('media.ready', { to: l.url, key: 'secret', baseUrl: 'https://api.example.com', hardwareId: 'HW-000042' });
    await l.done;
    expect(l.f.io.stdout()).toBe(`${sent.event.time}  media.ready      HW-000042   ${sent.event.id}  (attempt 1)\n`);
    const n = await listening({ maxEvents: 1 }, true, 'ndjson');
    const second = await triggerSampleEvent('live.gps', { to: n.url, key: 'secret', baseUrl: 'https://api.example.com' });
    await n.done;
    expect(JSON.parse(n.f.io.stdout())).toEqual(second.event);
  });

  it('on a terminal: control characters in the body are shown in the summary, never sent raw', async () => {
    const l = await listening({ maxEvents: 2 }, true);
    const sent = await triggerSampleEvent('live.gps', { to: l.url, key: 'secret', baseUrl: 'https://api.example.com' });
    const hostile = { ...sent.event, id: 'evt-\u001b]0;pwned\u0007', subject: 'HW-\u001b[2J\u009b' };
    const headers = { ...sent.headers, 'Idempotency-Key': 'hostile-delivery' };
    const answer = await fetch(l.url, { method: 'POST', headers, body: JSON.stringify(hostile) });
    expect(answer.status).toBe(200);
    await l.done;
    const screen = l.f.io.stdout() + l.f.io.stderr();
    expect(screen).not.toMatch(/[\u001b\u0007\u009b]/);
    expect(l.f.io.stdout()).toContain('HW-\\x1b[2J\\x9b');
    expect(l.f.io.stdout()).toContain('evt-\\x1b]0;pwned\\x07');
  });

  it('--max-events 3 with six deliveries on one keep-alive connection: exactly three printed, none of the rest accepted', async () => {
    const l = await listening({ maxEvents: 3 }, false);
    const client = new Client(l.url, { pipelining: 6 });
    onTestFinished(() => client.destroy());
    const deliveries = await Promise.all(
      Array.from({ length: 6 }, async (_, i) => {
        const event = { ...sampleEvent('live.gps', { baseUrl: 'https://api.example.com' }), id: `evt-${i}` };
        const headers = { 'content-type': 'application/cloudevents+json', 'x-webhook-key': 'secret' };
        try {
          const answer = await client.request({ path: '/', method: 'POST', headers, body: JSON.stringify(event) });
          await answer.body.text();
          return answer.statusCode;
        } catch {
          return 'closed'; // the listener had stopped: nothing is accepted either
        }
      }),
    );
    await l.done;
    expect(deliveries.slice(0, 3)).toEqual([200, 200, 200]);
    expect(deliveries.slice(3).every((status) => status === 503 || status === 'closed')).toBe(true);
    expect(l.f.io.stdout().trim().split('\n').map((line) => JSON.parse(line).id)).toEqual(['evt-0', 'evt-1', 'evt-2']);
    expect(l.f.io.stderr()).toMatch(/Stopped after 3 event\(s\)\.\n$/);
  });

  it('the previous key is accepted, and marked as such', async () => {
    const l = await listening({ previousKey: 'old', maxEvents: 1 }, true);
    await triggerSampleEvent('live.gps', { to: l.url, key: 'old', baseUrl: 'https://api.example.com' });
    await l.done;
    expect(l.f.io.stdout()).toContain('(attempt 1, previous key)');
    expect(l.f.io.stderr()).toContain('The previous key is accepted for 60 s.\n');
  });

  it('-o csv is refused; a port in use is a usage error', async () => {
    await expect(webhookListenRun(fakeDeps({ format: 'csv' }).deps, { host: '127.0.0.1', port: 0, key: 'k' })).rejects.toThrow('not CSV');
    const l = await listening({}, false);
    const port = Number(new URL(l.url).port);
    await expect(webhookListenRun(fakeDeps().deps, { host: '127.0.0.1', port, key: 'k' })).rejects.toMatchObject({
      message: `port ${port} on 127.0.0.1 is already in use`, exitCode: 2,
    });
  });
});

describe('webhook trigger', () => {
  async function parse(args: string[], env: NodeJS.ProcessEnv = {}): Promise<WebhookTriggerOptions> {
    const { run, calls } = recordRun<WebhookTriggerOptions>();
    await parseVerb(newWebhookTriggerCommand({ ...fakeDeps().deps, env }, run), args);
    return calls[0]!;
  }

  it('parses the type, the receiver and the key', async () => {
    expect(await parse(['event.generic', '--to', 'https://hooks.example.com/x', '--key', 'k'])).toEqual({
      type: 'event.generic', to: 'https://hooks.example.com/x', key: 'k', hardwareId: 'HW-000001',
    });
    await expect(parse(['nope', '--to', 'http://x', '--key', 'k'])).rejects.toThrow("value 'nope' is invalid for argument 'type'");
    await expect(parse(['live.gps', '--key', 'k'])).rejects.toThrow("required option '--to <url>' not specified");
    await expect(parse(['live.gps', '--to', 'mailto:a@b', '--key', 'k'])).rejects.toThrow('--to must be an http:// or https:// URL');
    await expect(parse(['live.gps', '--to', 'http://x', '--key', 'k', '--hardware-id', ''])).rejects.toThrow('--hardware-id');
  });

  async function receiverAnswering(status: number, body = '') {
    const seen: { headers: Record<string, unknown>; body: string }[] = [];
    const server = createServer((req, res) => {
      let text = '';
      req.on('data', (c: Buffer) => (text += c.toString()));
      req.on('end', () => {
        seen.push({ headers: req.headers, body: text });
        res.writeHead(status).end(body);
      });
    });
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    onTestFinished(() => new Promise<void>((ok) => server.close(() => ok())));
    return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`, seen };
  }

  it.each([false, true])('2xx: prints the id, status and Idempotency-Key (tty %s)', async (tty) => {
    const r = await receiverAnswering(204);
    const f = fakeDeps({ tty });
    await webhookTriggerRun(f.deps, { type: 'journey.closed', to: r.url, key: 'k1' });
    const sent = JSON.parse(r.seen[0]!.body);
    expect(r.seen[0]!.headers).toMatchObject({
      'x-webhook-key': 'k1', 'x-delivery-attempt': '1', 'content-type': 'application/cloudevents+json',
    });
    expect(validateEnvelope(sent).ok).toBe(true);
    expect(sent.source).toBe(`${BASE_URL}/v1/devices/HW-000001`);
    if (!tty) {
      expect(f.io.stdout()).toBe(`id\t${sent.id}\ntype\tjourney.closed\nto\t${r.url}\nstatus\t204\nidempotency_key\t${r.seen[0]!.headers['idempotency-key']}\n`);
    } else {
      expect(f.io.stdout()).toContain(sent.id);
    }
    expect(f.io.stderr()).toBe(`Delivered journey.closed ${sent.id}: HTTP 204.\n`);
  });

  it('--timeout bounds the wait for a receiver that never answers', async () => {
    const server = createServer(() => undefined);
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    onTestFinished(() => new Promise<void>((ok) => { server.closeAllConnections(); server.close(() => ok()); }));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
    const f = fakeDeps();
    const deps = { ...f.deps, globals: () => ({ timeout: '0.2' }) };
    await expect(webhookTriggerRun(deps, { type: 'live.gps', to: url, key: 'k' })).rejects.toMatchObject({
      message: `could not deliver to ${url}: timed out after 200 ms`, exitCode: 9,
    });
  });

  it('-o json adds the envelope and the answer', async () => {
    const r = await receiverAnswering(200, 'ok');
    const f = fakeDeps({ format: 'json' });
    await webhookTriggerRun(f.deps, { type: 'live.gps', to: r.url, key: 'k1' });
    const out = JSON.parse(f.io.stdout());
    expect(out).toMatchObject({ type: 'live.gps', status: 200, answer: 'ok' });
    expect(out.event).toEqual(JSON.parse(r.seen[0]!.body));
  });

  it('a non-2xx answer is an error with the exit code of its status; no receiver is exit 9', async () => {
    const r = await receiverAnswering(401, '{"error":"missing or wrong X-Webhook-Key"}');
    await expect(webhookTriggerRun(fakeDeps().deps, { type: 'live.gps', to: r.url, key: 'bad' })).rejects.toMatchObject({
      message: 'the receiver answered HTTP 401: {"error":"missing or wrong X-Webhook-Key"}', exitCode: 3,
    });
    const redirecting = await receiverAnswering(302);
    await expect(webhookTriggerRun(fakeDeps().deps, { type: 'live.gps', to: redirecting.url, key: 'k' })).rejects.toMatchObject({
      message: 'the receiver answered HTTP 302', hint: expect.stringContaining('deliveries do not follow redirects'),
    });
    const failing = await receiverAnswering(500);
    await expect(webhookTriggerRun(fakeDeps().deps, { type: 'live.gps', to: failing.url, key: 'k' })).rejects.toMatchObject({ exitCode: 9 });
    await expect(webhookTriggerRun(fakeDeps().deps, { type: 'live.gps', to: 'http://127.0.0.1:9/', key: 'k' })).rejects.toMatchObject({
      message: 'could not deliver to http://127.0.0.1:9/: ECONNREFUSED', exitCode: 9,
    });
  });
});
