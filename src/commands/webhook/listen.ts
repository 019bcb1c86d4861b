// `fleetctl webhook listen`: a local receiver of webhook deliveries (key check, de-duplication, envelope
// validation, body limit, optional relay to the user's app). Accepted events go to stdout: a one-line
// summary on a terminal, the full envelope as NDJSON when piped or with -o ndjson/json. Everything else
// (readiness, rejections, duplicates) goes to stderr. Runs until Ctrl-C, or until --max-events.
import { Command } from 'commander';
import type { Deps } from '../../factory.js';
import { safeText } from '../../output/terminal-text.js';
import { UsageError } from '../../errors.js';
import { describeVerb } from '../shared/help.js';
import { requireListenHost, requireWholeNumber } from '../shared/validate.js';
import { PREVIOUS_KEY_ENV, addKeyOptions, httpUrl, keyFrom, type KeyFlags } from './options.js';
import type { ReceivedDelivery, RejectedDelivery, RunningReceiver } from '../../webhooks/index.js';

export const DEFAULT_LISTEN_PORT = 4011;

export interface WebhookListenOptions {
  host: string;
  port: number;
  key: string;
  previousKey?: string;
  forwardTo?: string;
  /** Stop after this many accepted events (scripts, CI); undefined: run until interrupted. */
  maxEvents?: number;
}

type WebhookListenDeps = Pick<Deps, 'io' | 'output' | 'env' | 'signal'>;

export function newWebhookListenCommand(deps: WebhookListenDeps, run = webhookListenRun): Command {
  const command = new Command('listen')
    .description('Receive webhook deliveries locally: check the key, de-duplicate, validate, print (and relay) each event')
    .option('--port <port>', 'port to listen on; 0 picks a free one', String(DEFAULT_LISTEN_PORT))
    .option('--host <host>', 'address to listen on', '127.0.0.1');
  addKeyOptions(command, 'that deliveries must carry');
  command
    .option('--previous-key <key>', `also accept the key before a rotation, for 60 s (or ${PREVIOUS_KEY_ENV})`)
    .option('--forward-to <url>', "relay each delivery to your app (same headers) and answer with your app's status")
    .option('--max-events <n>', 'exit after this many events were accepted');
  describeVerb(command, {
    output: 'document',
    notes: [
      'Point a webhook topic at the printed URL; against a local sandbox that needs `fleetctl sandbox --allow-private-webhooks`',
      '(plain http:// to loopback). Answers: 200 accepted or duplicate, 401 wrong key, 400 invalid envelope, 413 too large,',
      "415 not CloudEvents JSON, 503 after --max-events were accepted; with --forward-to, your app's answer.",
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
  command.action(async (flags: KeyFlags & { port: string; host: string; previousKey?: string; forwardTo?: string; maxEvents?: string }) => {
    await run(deps, {
      host: requireListenHost(flags.host),
      port: requireWholeNumber(flags.port, '--port', 0, 65535),
      key: keyFrom(flags, deps.env),
      previousKey: flags.previousKey || deps.env[PREVIOUS_KEY_ENV] || undefined,
      forwardTo: flags.forwardTo === undefined ? undefined : httpUrl(flags.forwardTo, '--forward-to'),
      maxEvents: flags.maxEvents === undefined ? undefined : requireWholeNumber(flags.maxEvents, '--max-events', 1),
    });
  });
  return command;
}

export async function webhookListenRun(deps: WebhookListenDeps, opts: WebhookListenOptions): Promise<void> {
  const output = deps.output();
  if (output.format === 'csv') throw new UsageError('webhook listen prints envelopes as NDJSON (-o ndjson) or summaries (on a terminal), not CSV');
  const asNdjson = output.isMachineReadable || !deps.io.stdoutIsTTY;
  const { startReceiver } = await import('../../webhooks/index.js');
  let accepted = 0;
  let finish: () => void = () => undefined;
  let failure: unknown;
  const done = new Promise<void>((resolve) => (finish = resolve));
  const onEvent = (d: ReceivedDelivery) => {
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
      maxEvents: opts.maxEvents, onLimitReached: () => finish(),
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
  const line = `${e.time ?? '-'}  ${e.type.padEnd(15)}  ${(e.subject ?? '-').padEnd(10)}  ${e.id}`;
  return `${safeText(line)}${notes.length ? `  (${notes.join(', ')})` : ''}`;
}

function rejection(r: RejectedDelivery): string {
  const what = r.eventId ? ` ${r.eventId}` : '';
  if (r.status === 200) return `Duplicate${what} ignored: ${r.reason}`;
  return `Refused ${r.method} ${r.path}${what}: HTTP ${r.status}, ${r.reason}`;
}
