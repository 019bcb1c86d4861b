// What `fleetctl sandbox` says when it is ready, in at most 15 lines: the facts (stdout), each warning once
// (stderr), then the export lines last, where they are copied from. Every secret and id is in `--json`.
import type { RunningSandbox } from '../../sandbox/index.js';
import { DEFAULT_JOURNAL_SIZE, type SandboxOptions } from '../../sandbox/options.js';
import { CONTROL_TOKEN_VARIABLE } from './control-client.js';

/** spec Limits: "Webhook change propagation: up to 60 seconds"; the sandbox's default is shorter. */
export const DEFAULT_PROPAGATION_MS = 5_000;

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

/** The facts, one topic a line; paths are relative to the base URL named on the first. */
export function factLines(sandbox: RunningSandbox, options: SandboxOptions, caFile: string | undefined): string[] {
  const facts = readyFacts(sandbox);
  const path = (url: string) => (url.startsWith(facts.base_url) ? url.slice(facts.base_url.length) || '/' : url);
  const root = facts.organizations.find((o) => !o.parent_id) ?? facts.organizations[0];
  const others = facts.organizations.length - 1;
  const journal = options.journalSize ?? DEFAULT_JOURNAL_SIZE;
  return [
    // the URL itself is on the sandbox's own "serving" line just above, and in the export lines
    `Fleet API sandbox: OpenAPI ${path(facts.openapi_url)}, tokens ${path(`${facts.auth_url}/connect/token`)}`,
    `  Control routes: ${path(facts.control_openapi_url)} (faults, emit, the last ${journal} requests)`,
    `  State: ${options.statePath ?? 'in memory only (--state FILE)'}; faults: ${options.faultFile ?? 'none (sandbox fault add)'}`,
    `  World: ${options.scenarioFile ?? 'seeded (--scenario FILE)'}; telemetry: ${options.telemetryRatePerSecond ? `${options.telemetryRatePerSecond} device reports per second` : 'still (--telemetry-rate N)'}`,
    `  Webhooks: ${options.allowPrivateWebhooks ? 'address checks OFF' : 'public https only'}; changes take ${options.propagationMs ?? DEFAULT_PROPAGATION_MS} ms; timed events: ${options.emitRatePerSecond ? `${options.emitRatePerSecond} per second` : 'off'}`,
    `  Clients: ${facts.clients.map((c) => c.client_id).join(', ')}`,
    ...(root ? [`  Organizations: ${root.name} ${root.id}${others > 0 ? ` +${others}` : ''}`] : []),
    ...(caFile ? [`  TLS certificate: ${caFile} (trust it with --ca-file or FLEETCTL_CA_FILE)`] : []),
    ...(facts.control_token !== undefined ? ['  Control token: required on /_sandbox/* (exported below)'] : []),
  ];
}

/** Said on stderr between the facts and the export lines. */
export const READY_LINE = 'Sandbox ready. Press Ctrl-C to stop. From another shell (every secret: --json):';

/** The lines to paste in another shell, as the first seeded client (sandbox-admin). */
export function exportLines(sandbox: RunningSandbox, caFile: string | undefined): string[] {
  const facts = readyFacts(sandbox);
  const admin = facts.clients.find((client) => client.client_id === 'sandbox-admin') ?? facts.clients[0]!;
  return [
    `  export FLEETCTL_BASE_URL=${facts.base_url}`,
    `  export FLEETCTL_AUTH_URL=${facts.auth_url}`,
    `  export FLEETCTL_CLIENT_ID=${admin.client_id}`,
    `  export FLEETCTL_CLIENT_SECRET=${admin.client_secret}`,
    `  export FLEETCTL_ORGANIZATION_ID=${admin.organization_id}`,
    ...(caFile ? [`  export FLEETCTL_CA_FILE=${caFile}`] : []),
    ...(facts.control_token !== undefined ? [`  export ${CONTROL_TOKEN_VARIABLE}=${facts.control_token}`] : []),
  ];
}

/** Off loopback, anyone who reaches the port is a client: say what they can do, and what guards the control routes. */
export function sharedSandboxWarning(sandbox: RunningSandbox, tokenGiven: boolean): string {
  return (
    `the sandbox listens on ${sandbox.listenAddress}, which other machines can reach: anyone there can use its API with the seeded client secrets ` +
    `(the same for every sandbox of this seed); its control routes require the control token ${tokenGiven ? 'you gave' : 'exported below'}. Share it only on a network you trust.`
  );
}
