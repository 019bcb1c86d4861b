// `fleetctl webhook listen`: a local receiver of webhook deliveries (key check, de-duplication, envelope
// check, body limit, optional relay to the user's app). Accepted events go to stdout: a one-line
// summary on a terminal, the full envelope as NDJSON when piped or with -o ndjson/json. Everything else
// (readiness, rejections, duplicates, how an event differs from the document) goes to stderr. Runs until
// Ctrl-C, or until --max-events.
import { Command } from 'commander';
import type { Deps } from '../../factory.js';
import { cutText, safeText } from '../../shared/terminal-text.js';
import { UsageError } from '../../errors.js';
import { describeVerb } from '../shared/help.js';
import { requireListenHost, requireWholeNumber } from '../shared/validate.js';
import { PREVIOUS_KEY_ENV, addKeyOptions, httpUrl, keyFrom, type KeyFlags } from './options.js';
import type { ReceivedDelivery, RejectedDelivery, RunningReceiver } from '../../webhooks/index.js';
import { DEFAULT_REQUEST_TIMEOUT_MS } from '../../shared/server-timeouts.js';

export const DEFAULT_LISTEN_PORT = 4011;

export interface WebhookListenOptions {
  host: string;
  port: number;
  key: string;
  previousKey?: string;
  forwardTo?: string;
  /** Stop after this many accepted events (scripts, CI); undefined: run until interrupted. */
  maxEvents?: number;
  /** Refuse what differs from the document, not only what the spec rules out. */
  strict?: boolean;
  /** A delivery whose headers and body have not all arrived by then is answered 408 and its connection closed. */
  requestTimeoutMs?: number;
}

type WebhookListenDeps = Pick<Deps, 'io' | 'output' | 'env' | 'signal'>;

export function newWebhookListenCommand(deps: WebhookListenDeps, run = webhookListenRun): Command {
  const command = new Command('listen')
    .description('Receive webhook deliveries locally: check the key, de-duplicate, print (and relay) each event')
    .option('--port <port>', 'port to listen on; 0 picks a free one', String(DEFAULT_LISTEN_PORT))
    .option('--host <host>', 'address to listen on', '127.0.0.1');
  addKeyOptions(command, 'that deliveries must carry');
  command
    .option('--previous-key <key>', `also accept the key before a rotation, for 60 s (or ${PREVIOUS_KEY_ENV})`)
    .option('--forward-to <url>', "relay each delivery to your app (same headers) and answer with your app's status")
    .option('--max-events <n>', 'exit after this many events were accepted')
    .option('--request-timeout <seconds>', 'close a connection whose delivery (headers and body) has not all arrived by then (408)', String(DEFAULT_REQUEST_TIMEOUT_MS / 1000))
    .option('--strict', "refuse (400, 415) what fleetctl's document rules out, not only what the spec does: to test your own producer against it");
  describeVerb(command, {
    output: 'document',
    notes: [
      'Point a webhook topic at the printed URL; against a local sandbox that needs `fleetctl sandbox --allow-private-webhooks`',
      '(plain http:// to loopback). Answers: 200 accepted or duplicate, 401 missing or wrong key, 400 not a CloudEvents 1.0',
      'envelope with id, source, type and specversion (or a body that is not UTF-8 JSON), 408 a delivery slower than',
      '--request-timeout (20 s) to arrive, 413 too large, 503 after --max-events were accepted; with',
      "--forward-to, your app's answer. Anything else the spec allows is accepted, so the service does not retry it: an",
      "unknown event type, or a payload whose properties differ from fleetctl's document (the spec does not show them all),",
      'is printed and relayed with one warning line on stderr naming the difference. --strict refuses what the document',
      'rules out instead (a missing or renamed property, an unknown type: 400; a content type other than',
      'application/cloudevents+json: 415), as when testing your own producer; an extra property is still only named.',
      'Runs until Ctrl-C unless --max-events is given.',
      'Everyday use (runs until Ctrl-C):  fleetctl webhook listen --key-env FLEETCTL_WEBHOOK_KEY --forward-to http://127.0.0.1:3000/webhooks',
    ].join('\n'),
    examples: [
      {
        comment: 'receive deliveries on port 4011, the key in FLEETCTL_WEBHOOK_KEY',
        command: 'fleetctl webhook listen --port 4011',
        given: 'export FLEETCTL_WEBHOOK_KEY=demo-key',
        runsUntilInterrupted: true,
      },
      {
        comment: 'receive one sample event, print its envelope and exit',
        command: 'fleetctl webhook listen --port 4011 --key demo-key --max-events 1 & sleep 2; fleetctl webhook trigger live.gps --to http://127.0.0.1:4011/ --key demo-key >/dev/null; wait $!',
      },
    ],
  });
  command.action(async (flags: KeyFlags & { port: string; host: string; previousKey?: string; forwardTo?: string; maxEvents?: string; strict?: boolean; requestTimeout: string }) => {
    await run(deps, {
      host: requireListenHost(flags.host),
      port: requireWholeNumber(flags.port, '--port', 0, 65535),
      key: keyFrom(flags, deps.env),
      previousKey: flags.previousKey || deps.env[PREVIOUS_KEY_ENV] || undefined,
      forwardTo: flags.forwardTo === undefined ? undefined : httpUrl(flags.forwardTo, '--forward-to'),
      maxEvents: flags.maxEvents === undefined ? undefined : requireWholeNumber(flags.maxEvents, '--max-events', 1),
      strict: flags.strict === true,
      requestTimeoutMs: requireWholeNumber(flags.requestTimeout, '--request-timeout', 1, 3600) * 1000,
    });
  });
  return command;
}

export async function webhookListenRun(deps: WebhookListenDeps, opts: WebhookListenOptions): Promise<void> {
  const output = deps.output();
  if (!output.writesLoneItems) throw new UsageError(`webhook listen prints envelopes as NDJSON (-o ndjson) or summaries (on a terminal), not ${output.formatName.toUpperCase()}`);
  const asNdjson = output.isMachineReadable || !deps.io.stdoutIsTTY;
  const { startReceiver } = await import('../../webhooks/index.js');
  let accepted = 0;
  let finish: () => void = () => undefined;
  let failure: unknown;
  const done = new Promise<void>((resolve) => (finish = resolve));
  const onEvent = (d: ReceivedDelivery) => {
    if (d.differences.length > 0) deps.io.warn(differenceWarning(d));
    // an NDJSON line, a YAML document, or what --jq makes of the envelope; a --jq error stops the listener
    if (asNdjson) {
      output.item(d.event).catch((error: unknown) => {
        failure ??= error;
        finish();
      });
    } else {
      output.text(summary(d));
    }
    accepted++;
  };
  let receiver: RunningReceiver;
  try {
    receiver = await startReceiver({
      host: opts.host, port: opts.port, key: opts.key, previousKey: opts.previousKey, forwardTo: opts.forwardTo,
      onEvent, onReject: (r) => deps.io.info(rejection(r)),
      maxEvents: opts.maxEvents, onLimitReached: () => finish(), strict: opts.strict, requestTimeoutMs: opts.requestTimeoutMs,
    });
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === 'EADDRINUSE') throw new UsageError(`port ${opts.port} on ${opts.host} is already in use`, 'pick another with --port (0 picks a free one)');
    if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') throw new UsageError(`cannot listen on ${opts.host}: not an address of this machine`);
    throw err;
  }
  deps.io.info(`Listening on ${receiver.url}`);
  if (opts.forwardTo) deps.io.info(`Relaying each delivery to ${opts.forwardTo}`);
  if (opts.previousKey) deps.io.info('The previous key is accepted for 60 s.');
  deps.io.info(opts.maxEvents === undefined ? 'Press Ctrl-C to stop.' : `Stopping after ${opts.maxEvents} event(s); Ctrl-C stops earlier.`);
  if (deps.signal.aborted) finish();
  deps.signal.addEventListener('abort', () => finish(), { once: true });
  await done;
  await receiver.close();
  if (failure) throw failure;
  deps.io.info(`Stopped after ${accepted} event(s).`);
}

function summary(d: ReceivedDelivery): string {
  const e = d.event;
  const notes = [
    d.attempt !== null ? `attempt ${d.attempt}` : null,
    d.keyUsed === 'previous' ? 'previous key' : null,
    d.forwardStatus !== undefined ? `relayed: HTTP ${d.forwardStatus}` : null,
  ].filter(Boolean);
  // Every part but the notes comes from the sender's body: shown, never sent raw to the terminal.
  const line = `${attribute(e.time)}  ${e.type.padEnd(15)}  ${attribute(e.subject).padEnd(10)}  ${e.id}`;
  return `${safeText(line)}${notes.length ? `  (${notes.join(', ')})` : ''}`;
}

/** An optional attribute as the summary shows it: the producer may send any JSON value, or none. */
function attribute(value: unknown): string {
  return typeof value === 'string' ? value : value === undefined ? '-' : JSON.stringify(value);
}

/**
 * One line for an accepted event that differs from the document. Its parts come from the sender: made safe here,
 * line feeds included (io.warn keeps those), so a hostile id cannot split the warning or drive the terminal.
 */
function differenceWarning(d: ReceivedDelivery): string {
  const what = `${cutText(d.event.type, 60)} ${cutText(d.event.id, 80)}`;
  return safeText(`${what} accepted, but it differs from fleetctl's document: ${d.differences.map((part) => cutText(part, 300)).join('; ')}`);
}

function rejection(r: RejectedDelivery): string {
  const what = r.eventId ? ` ${r.eventId}` : '';
  if (r.status === 200) return `Duplicate${what} ignored: ${r.reason}`;
  return `Refused ${r.method} ${r.path}${what}: HTTP ${r.status}, ${r.reason}`;
}
