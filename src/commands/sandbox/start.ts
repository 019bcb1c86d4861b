// `fleetctl sandbox`: runs the local emulator of the whole API in the foreground until Ctrl-C or SIGTERM.
import type { Command } from 'commander';
import type { Deps } from '../../factory.js';
import { UsageError } from '../../errors.js';
import { shortScope } from '../../auth/scopes.js';
import { completeValues } from '../../completion/values.js';
import { DEFAULT_JOURNAL_SIZE, MAX_JOURNAL_SIZE, MAX_TELEMETRY_RATE, type SandboxOptions } from '../../sandbox/options.js';
import type { RunningSandbox } from '../../sandbox/index.js';
import { requireListenHost, requireNumber, requireWholeNumber } from '../shared/validate.js';
import { requireRegularFileOrMissing } from '../../io/read-input.js';
import { CONTROL_TOKEN_VARIABLE } from './control-client.js';

/** spec Limits: "Webhook change propagation: up to 60 seconds"; the sandbox's default is shorter. */
const DEFAULT_PROPAGATION_MS = 5_000;

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
    seed: requireWholeNumber(flags.seed ?? '1', '--seed', 0, 2 ** 31),
    devices: requireWholeNumber(flags.devices ?? '200', '--devices', 1, 1_000_000),
    rateLimit: flags.rateLimit === undefined ? undefined : requireNumber(flags.rateLimit, '--rate-limit', 'a positive number', (n) => n > 0),
    faultRate: flags.faultRate === undefined ? undefined : requireNumber(flags.faultRate, '--fault-rate', 'a number from 0 to 1', (n) => n >= 0 && n <= 1),
    latencyMs: flags.latency === undefined ? undefined : requireWholeNumber(flags.latency, '--latency', 0, 60_000),
    tokenTtlSeconds: requireWholeNumber(flags.tokenTtl ?? '3600', '--token-ttl', 1, 31_536_000),
    allowPrivateWebhooks: flags.allowPrivateWebhooks === true,
    emitRatePerSecond: flags.emitRate === undefined ? undefined : rate(flags.emitRate, '--emit-rate'),
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
    .during('Starting the sandbox', () => startSandbox({ ...options, tls: certificate?.tls, log: (line) => deps.io.info(line) }))
    .catch(async (error: unknown) => {
      await certificate?.remove();
      throw error;
    });
  const caFile = certificate?.file;
  if (json) {
    deps.output().text(JSON.stringify({ ...readyFacts(sandbox), ...(caFile && { ca_file: caFile }) }));
  } else {
    deps.output().text(readableFacts(sandbox, options, caFile));
  }
  if (!sandbox.loopback) deps.io.warn(sharedSandboxWarning(sandbox, options.controlToken !== undefined));
  // said again as the last thing before "ready", where it cannot scroll away unseen (issue: "loudly")
  if (options.allowPrivateWebhooks) deps.io.info(PRIVATE_WEBHOOKS_WARNING);
  deps.io.info('Sandbox ready. Press Ctrl-C to stop.');
  await new Promise<void>((resolve) => {
    if (deps.signal.aborted) return resolve();
    deps.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  await sandbox.close();
  await certificate?.remove();
  deps.io.info(options.statePath ? `Sandbox stopped; state saved to ${options.statePath}.` : 'Sandbox stopped.');
}

export const PRIVATE_WEBHOOKS_WARNING = [
  '!! WARNING: --allow-private-webhooks is on: webhook address checks are OFF.',
  '!! Deliveries may go to loopback and private addresses, and over plain http:// to loopback.',
  '!! LOCAL DEVELOPMENT ONLY: never use it where the sandbox can be reached by others.',
].join('\n');

/** Off loopback, anyone who reaches the port is a client: say what they can do, and what guards the control routes. */
function sharedSandboxWarning(sandbox: RunningSandbox, tokenGiven: boolean): string {
  return [
    `the sandbox listens on ${sandbox.listenAddress}, which other machines can reach: anyone there can use its API with the seeded client secrets printed above (the same for every sandbox of this seed).`,
    `Its control routes (/_sandbox/*: reset, faults, emit, the request and delivery logs) require the control token${tokenGiven ? ' you gave' : ' printed above'}. Share it only on a network you trust.`,
  ].join('\n');
}

export function readyFacts(sandbox: RunningSandbox) {
  return {
    base_url: sandbox.baseUrl,
    auth_url: sandbox.authUrl,
    openapi_url: sandbox.openapiUrl,
    control_openapi_url: sandbox.controlOpenapiUrl,
    ...(sandbox.controlToken !== undefined && { control_token: sandbox.controlToken }),
    clients: sandbox.clients.map(({ client_id, client_secret, scopes, organization_id }) => ({ client_id, client_secret, scopes, organization_id })),
    organizations: sandbox.organizations.map(({ id, name, parent_id }) => ({ id, name, parent_id })),
  };
}

function readableFacts(sandbox: RunningSandbox, options: SandboxOptions, caFile: string | undefined): string {
  const facts = readyFacts(sandbox);
  const admin = facts.clients.find((client) => client.client_id === 'sandbox-admin') ?? facts.clients[0];
  const lines = [
    `Fleet API sandbox listening on ${facts.base_url}`,
    `  OpenAPI document: ${facts.openapi_url}`,
    `  Token endpoint:   ${facts.auth_url}/connect/token`,
    `  Control routes:   ${facts.control_openapi_url} (readiness: ${facts.base_url}/_sandbox/health)`,
    ...(facts.control_token !== undefined ? [`  Control token:    ${facts.control_token} (required on /_sandbox/*: Authorization: Bearer TOKEN)`] : []),
    `  State:            ${options.statePath ?? 'in memory only (use --state FILE to keep it)'}`,
    `  Scenario:         ${options.scenarioFile ?? 'none: the seeded world (--scenario FILE)'}`,
    `  Faults:           ${options.faultFile ?? 'none at start'}; add some with: fleetctl sandbox fault add`,
    `  Telemetry:        ${options.telemetryRatePerSecond ? `${options.telemetryRatePerSecond} device reports per second` : 'still (--telemetry-rate N)'}`,
    `  Request journal:  latest ${options.journalSize ?? DEFAULT_JOURNAL_SIZE} requests: fleetctl sandbox requests`,
    ...(caFile ? [`  TLS certificate:  ${caFile} (trust it with --ca-file or FLEETCTL_CA_FILE)`] : []),
    '',
    'Clients:',
    ...facts.clients.map((c) => `  ${c.client_id.padEnd(20)} secret ${c.client_secret}  org ${c.organization_id}  scopes: ${c.scopes.map(shortScope).join(' ')}`),
    '',
    'Organizations:',
    ...facts.organizations.map((o) => `  ${o.id}  ${o.name}${o.parent_id ? `  (child of ${o.parent_id})` : ''}`),
    '',
    'Webhooks:',
    `  Address checks:   ${options.allowPrivateWebhooks ? 'OFF (--allow-private-webhooks): private, loopback and http:// to loopback allowed' : 'on: public https destinations only'}`,
    `  Propagation:      ${options.propagationMs ?? DEFAULT_PROPAGATION_MS} ms for configuration changes and key rotations`,
    `  Timed events:     ${options.emitRatePerSecond ? `${options.emitRatePerSecond} per second` : 'off (--emit-rate N)'}; on demand: fleetctl sandbox emit TYPE`,
    `  Delivery log:     ${facts.base_url}/_sandbox/deliveries`,
    '',
    'Use it from another shell:',
    `  export FLEETCTL_BASE_URL=${facts.base_url}`,
    `  export FLEETCTL_AUTH_URL=${facts.auth_url}`,
    `  export FLEETCTL_CLIENT_ID=${admin.client_id}`,
    `  export FLEETCTL_CLIENT_SECRET=${admin.client_secret}`,
    `  export FLEETCTL_ORGANIZATION_ID=${admin.organization_id}`,
    ...(caFile ? [`  export FLEETCTL_CA_FILE=${caFile}`] : []),
    ...(facts.control_token !== undefined ? [`  export ${CONTROL_TOKEN_VARIABLE}=${facts.control_token}`] : []),
    '  fleetctl devices list',
  ];
  return `${lines.join('\n')}\n`;
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
