// `fleetctl sandbox`: runs the local emulator of the whole API in the foreground until Ctrl-C or SIGTERM.
import type { Command } from 'commander';
import type { Deps } from '../../factory.js';
import { UsageError } from '../../errors.js';
import { completeValues } from '../../completion/values.js';
import { DEFAULT_JOURNAL_SIZE, MAX_EMIT_RATE, MAX_JOURNAL_SIZE, MAX_TELEMETRY_RATE, type SandboxOptions } from '../../sandbox/options.js';
import type { RunningSandbox } from '../../sandbox/index.js';
import { requireListenHost, requireNumber, requireWholeNumber } from '../shared/validate.js';
import { requireRegularFileOrMissing } from '../../io/read-input.js';
import { CONTROL_TOKEN_VARIABLE } from './control-client.js';
import { commandOf } from './embedded.js';
import { DEFAULT_PROPAGATION_MS, exportLines, factLines, READY_LINE, readyFacts, sharedSandboxWarning } from './banner.js';



export interface SandboxStartFlags {
  host: string;
  port: string;
  state?: string;
  seed?: string;
  devices?: string;
  rateLimit?: string;
  faultRate?: string;
  latency?: string;
  tokenTtl?: string;
  allowPrivateWebhooks?: boolean;
  emitRate?: string;
  propagation?: string;
  scenario?: string;
  fault?: string;
  telemetryRate?: string;
  journalSize?: string;
  json?: boolean;
  tls?: boolean;
  controlToken?: string;
}

/** The sandbox's options, and whether to make a certificate and serve HTTPS (--tls). */
export type SandboxStartOptions = SandboxOptions & { certificate?: boolean };

type SandboxStartDeps = Pick<Deps, 'io' | 'output' | 'signal' | 'globals'>;

export function addSandboxStartOptions(command: Command): Command {
  command
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--port <port>', 'port to listen on; 0 picks a free one', '4010')
    .option('--state <file>', 'load state from this file and save it there (atomically) after changes and at exit')
    .option('--seed <n>', 'seed of the generated data: the same seed gives the same data and client secrets', '1')
    .option('--devices <n>', 'number of devices to generate', '200')
    .option('--scenario <file>', 'start from the world a scenario file describes (YAML or JSON), on top of the seeded world or instead of it')
    .option('--fault <file>', 'fault rules in effect from the start (YAML or JSON; see `fleetctl sandbox fault add`)')
    .option('--telemetry-rate <n>', 'device reports per second: new positions, states and events, some late, delivered as webhooks too (default 0: still)')
    .option('--journal-size <n>', 'requests the journal keeps (`fleetctl sandbox requests`)', '1000')
    .option('--rate-limit <r>', 'requests per second per client before 429 with Retry-After')
    .option('--fault-rate <p>', 'share (0 to 1) of API requests that fail with 503 or a dropped connection')
    .option('--latency <ms>', 'delay added to every answer, in milliseconds')
    .option('--token-ttl <seconds>', 'lifetime of issued tokens (expires_in)', '3600')
    .option('--allow-private-webhooks', 'LOCAL DEVELOPMENT ONLY: deliver webhooks to private and loopback addresses, and over http:// to loopback')
    .option('--emit-rate <n>', 'webhook events per second emitted from the seeded fleet, round robin over the five types (default 0: off)')
    .option('--propagation <ms>', 'delay before webhook configuration changes and key rotations reach deliveries (at most 60000)', String(DEFAULT_PROPAGATION_MS))
    .option('--json', 'print one JSON line with the endpoints and credentials when ready')
    .option('--control-token <token>', `token the control routes (/_sandbox/*) require as a bearer token; made and printed at start when --host is not loopback (env ${CONTROL_TOKEN_VARIABLE})`)
    .option('--tls', 'serve HTTPS with a certificate made at start; its PEM file is printed (trust it with --ca-file)');
  return completeValues(command, { '--state': 'file', '--scenario': 'file', '--fault': 'file' });
}

export function sandboxOptionsFrom(flags: SandboxStartFlags): SandboxStartOptions {
  return {
    certificate: flags.tls === true,
    host: requireListenHost(flags.host),
    port: requireWholeNumber(flags.port, '--port', 0, 65535),
    statePath: flags.state === undefined ? undefined : requireRegularFileOrMissing(flags.state, '--state'),
    // held for as long as it runs: a command that waits for the file names this one
    lockPurpose: commandOf(process.argv),
    seed: requireWholeNumber(flags.seed ?? '1', '--seed', 0, 2 ** 31),
    devices: requireWholeNumber(flags.devices ?? '200', '--devices', 1, 1_000_000),
    rateLimit: flags.rateLimit === undefined ? undefined : requireNumber(flags.rateLimit, '--rate-limit', 'a positive number', (n) => n > 0),
    faultRate: flags.faultRate === undefined ? undefined : requireNumber(flags.faultRate, '--fault-rate', 'a number from 0 to 1', (n) => n >= 0 && n <= 1),
    latencyMs: flags.latency === undefined ? undefined : requireWholeNumber(flags.latency, '--latency', 0, 60_000),
    tokenTtlSeconds: requireWholeNumber(flags.tokenTtl ?? '3600', '--token-ttl', 1, 31_536_000),
    allowPrivateWebhooks: flags.allowPrivateWebhooks === true,
    emitRatePerSecond: flags.emitRate === undefined ? undefined : rate(flags.emitRate, '--emit-rate', MAX_EMIT_RATE),
    propagationMs: requireWholeNumber(flags.propagation ?? String(DEFAULT_PROPAGATION_MS), '--propagation', 0, 60_000),
    scenarioFile: flags.scenario,
    faultFile: flags.fault,
    telemetryRatePerSecond: flags.telemetryRate === undefined ? undefined : rate(flags.telemetryRate, '--telemetry-rate', MAX_TELEMETRY_RATE),
    journalSize: requireWholeNumber(flags.journalSize ?? String(DEFAULT_JOURNAL_SIZE), '--journal-size', 1, MAX_JOURNAL_SIZE),
    controlToken: flags.controlToken === undefined ? undefined : controlToken(flags.controlToken),
  };
}

export async function sandboxStartRun(deps: SandboxStartDeps, options: SandboxStartOptions, json: boolean): Promise<void> {
  const { startSandbox } = await import('../../sandbox/index.js');
  const { certificateOnDisk } = await import('../../sandbox/tls-certificate.js');
  const certificate = options.certificate ? await certificateOnDisk(options.host ?? '127.0.0.1') : undefined;
  const sandbox = await deps.io.activity
    .during('Starting the sandbox', () => startSandbox({ ...options, tls: certificate?.tls, log: (line) => deps.io.info(line), lockNotice: (line) => deps.io.info(line) }))
    .catch(async (error: unknown) => {
      await certificate?.remove();
      throw error;
    });
  const caFile = certificate?.file;
  // each warning is said once: --allow-private-webhooks by the sandbox itself as it starts (its log, above)
  if (json) deps.output().text(JSON.stringify({ ...readyFacts(sandbox), ...(caFile && { ca_file: caFile }) }));
  else deps.output().text(`${factLines(sandbox, options, caFile).join('\n')}\n`);
  if (!sandbox.loopback) deps.io.warn(sharedSandboxWarning(sandbox, options.controlToken !== undefined));
  deps.io.info(json ? 'Sandbox ready. Press Ctrl-C to stop.' : READY_LINE);
  // last, where they are copied from
  if (!json) deps.output().text(`${exportLines(sandbox, caFile).join('\n')}\n`);
  await new Promise<void>((resolve) => {
    if (deps.signal.aborted) return resolve();
    deps.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  await sandbox.close();
  await certificate?.remove();
  deps.io.info(options.statePath ? `Sandbox stopped; state saved to ${options.statePath}.` : 'Sandbox stopped.');
}

/** Events per second; 0 is off, the default (so a script can pass a variable that may be 0, but not a blank). */
function rate(value: string, flag: string, max = Number.POSITIVE_INFINITY): number {
  const what = `a number of events per second, 0 or more${Number.isFinite(max) ? ` (at most ${max})` : ''}`;
  return requireNumber(value, flag, what, (n) => n >= 0 && n <= max);
}

/** A token goes in an Authorization header: printable ASCII, no spaces, and long enough to guess at no better than chance. */
function controlToken(value: string): string {
  if (!/^[\x21-\x7e]{16,256}$/.test(value)) {
    throw new UsageError(`--control-token (or ${CONTROL_TOKEN_VARIABLE}) must be 16 to 256 printable ASCII characters without spaces`, 'make one with: openssl rand -base64 24');
  }
  return value;
}
