// A second service double, written from the spec (/work/shared/spec/fleet-telematics-api.md) alone and not from
// src/openapi/v1.json: it honours every rule the spec states (envelopes, scopes, limits, Idempotency-Key, If-Match,
// problem+json with `code`) and shapes everything the spec leaves unshown its own way. In process, on an
// ephemeral port of 127.0.0.1, so end-to-end tests can run the built CLI against it.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { request } from 'undici';
import { deviceRoutes, type IdempotencyStore } from './second-service/devices.js';
import { driverFleetEventRoutes } from './second-service/drivers-fleets-events.js';
import { ProblemError, readBody, send, sendProblem, problem } from './second-service/http.js';
import { answerSchema, assignMember, recordAsWritten, serviceDocument, type DocumentForms } from './second-service/openapi.js';
import { seedState, type ServiceState } from './second-service/records.js';
import { matchRoutes, SCOPE_PREFIX, type Caller, type Route } from './second-service/routing.js';
import { webhookConfigRoutes, type ConfigStore } from './second-service/webhook-config.js';

export { deliverWebhook, samplePayload } from './second-service/deliveries.js';
export { BIG_FLEET_SIZE, eventRef, seedUuid } from './second-service/records.js';
export { GENERATED_FORMS, PLAIN_FORMS, type DocumentForms, type MemberRenames } from './second-service/openapi.js';

/** The 19 scopes of the spec's table. */
export const ALL_SCOPES = [
  'organizations_read', 'fleets_read', 'vehicles_read', 'drivers_read', 'devices_read', 'events_read', 'journeys_read', 'live_positions_read',
  'webhooks_read', 'fleets_write', 'vehicles_write', 'drivers_write', 'devices_write', 'video_requests_write', 'live_streams_write',
  'playback_sessions_write', 'webhooks_write', 'device_commands_reboot', 'device_commands_wake_up',
];

export interface SecondClient {
  client_id: string;
  client_secret: string;
  organization_id: string;
  /** Short scope names this client may be granted. */
  scopes: string[];
}

export interface SecondServiceOptions {
  /** false: {base_url}/openapi/v1.json is 404, so only the records can tell a client their shape. */
  serveDocument?: boolean;
  /** Milliseconds after a reboot or wake-up until the device's telemetry (observed_at) is new again (default 150). */
  commandReturnMs?: number;
  /** Devices that never report again once rebooted. */
  neverBack?: string[];
  /** How its served document is written (default: as generators write one, every form on). */
  documentForms?: DocumentForms;
  /** How far the devices' clocks are from this machine's (observed_at follows them): -40000 runs 40 s behind. */
  deviceClockOffsetMs?: number;
  /** Every next_cursor handed out is this many characters long (the spec bounds no cursor's length), taken back whole. */
  cursorLength?: number;
}

export interface InjectedFault {
  status: 429 | 503 | 500;
  /** How many API requests get it (default 1). */
  times?: number;
  /** Retry-After: an HTTP-date when a Date, delay-seconds when a number. */
  retryAfter?: Date | number;
  /** Only requests whose path starts with this. */
  pathPrefix?: string;
  /** How many such requests are answered as usual before it applies (a later page fails, the first does not). */
  after?: number;
}

export interface LoggedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  body: string;
  status: number;
  /** Headers of the answer (the ETag of a webhook-config read, a Retry-After ...). */
  answered: Record<string, string>;
}

export interface SecondService {
  baseUrl: string;
  authUrl: string;
  clients: { admin: SecondClient; reader: SecondClient; child: SecondClient };
  state: ServiceState;
  /** Every request answered, token requests included, in order. */
  requests: LoggedRequest[];
  /** Every token issued so far stops working: the next API call with one is 401. */
  expireTokens(): void;
  inject(fault: InjectedFault): void;
  /** Environment for the built CLI as one of the clients. */
  envFor(client: SecondClient, configDir: string): Record<string, string>;
  /** One raw API call as the client (a token for every scope it has), for comparing with what the CLI printed. */
  call(client: SecondClient, method: string, path: string, init?: { body?: unknown; headers?: Record<string, string> }): Promise<RawAnswer>;
  /** The key deliveries carry (after the configuration of that organization exists). */
  webhookKey(organizationId: string): string | undefined;
  close(): Promise<void>;
}

export interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: any;
}

interface Token { caller: Caller; scopes: Set<string>; expired: boolean }

export async function startSecondService(options: SecondServiceOptions = {}): Promise<SecondService> {
  const state = seedState();
  const idempotency: IdempotencyStore = new Map();
  const configs: ConfigStore = new Map();
  const returns = new Set<NodeJS.Timeout>();
  // a device reports again a while after its command: its telemetry gets a new observed_at then (not before)
  const executed = (hw: string, command: string): void => {
    if (command === 'reboot' && options.neverBack?.includes(hw)) return;
    const timer = setTimeout(() => {
      returns.delete(timer);
      state.lastReported.set(hw, { ...(state.lastReported.get(hw) ?? { hw }), observed_at: new Date(Date.now() + (options.deviceClockOffsetMs ?? 0)).toISOString() });
    }, options.commandReturnMs ?? 150);
    returns.add(timer);
  };
  const routes: Route[] = [...deviceRoutes(idempotency, executed, assignMember(options.documentForms)), ...driverFleetEventRoutes(), ...webhookConfigRoutes(configs)];
  const tokens = new Map<string, Token>();
  const faults: (InjectedFault & { left: number; passed: number })[] = [];
  const requests: LoggedRequest[] = [];
  const secret = () => `s3c-${randomBytes(12).toString('base64url')}`;
  const clients = {
    admin: { client_id: 'second-admin', client_secret: secret(), organization_id: state.rootOrg, scopes: ALL_SCOPES },
    reader: { client_id: 'second-reader', client_secret: secret(), organization_id: state.rootOrg, scopes: ['devices_read', 'fleets_read'] },
    child: { client_id: 'second-child', client_secret: secret(), organization_id: state.childOrg, scopes: ALL_SCOPES },
  };
  let baseUrl = '';

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://second-service.test');
    const body = await readBody(req);
    const log = (status: number, answered: Record<string, string> = {}): void => {
      requests.push({ method: req.method ?? '', path: url.pathname, query: url.searchParams, headers: req.headers, body, status, answered });
    };
    try {
      if (url.pathname === '/issuer/connect/token') return log(issueToken(req, body, res));
      if (url.pathname.startsWith('/signed-media/')) return log(signedMedia(req, url, res));
      if (url.pathname === '/openapi/v1.json' && req.method === 'GET') {
        if (options.serveDocument === false) throw problem(404, 'resource.absent', 'no description document is served here');
        send(res, 200, serviceDocument(routes, `${baseUrl}/issuer`, options.documentForms));
        return log(200);
      }
      const answer = lengthenedCursors(await api(req, shortenedCursor(url), body));
      send(res, answer.status, answer.body, answer.headers);
      log(answer.status, answer.headers);
    } catch (error) {
      const p = error instanceof ProblemError ? error : problem(500, 'server.fault', 'unexpected fault in the second service', { extra: { cause: String(error) } });
      sendProblem(res, url.pathname, p.problem, p.headers);
      log(p.problem.status, p.headers);
    }
  }

  // a long cursor is the service's own cursor, a dot, and filler: nothing else changes
  function shortenedCursor(url: URL): URL {
    const cursor = url.searchParams.get('cursor');
    if (options.cursorLength === undefined || cursor === null) return url;
    const short = new URL(url);
    short.searchParams.set('cursor', cursor.replace(/\.L+$/, ''));
    return short;
  }

  function lengthenedCursors<A extends { body?: unknown }>(answer: A): A {
    const page = answer.body as { next_cursor?: unknown } | undefined;
    if (options.cursorLength === undefined || typeof page?.next_cursor !== 'string') return answer;
    const cursor = `${page.next_cursor}.`;
    return { ...answer, body: { ...page, next_cursor: cursor.padEnd(options.cursorLength, 'L') } };
  }

  async function api(req: IncomingMessage, url: URL, body: string) {
    const fault = faults.find((f) => f.left > 0 && (!f.pathPrefix || url.pathname.startsWith(f.pathPrefix)));
    if (fault && fault.passed < (fault.after ?? 0)) fault.passed += 1;
    else if (fault) {
      fault.left -= 1;
      const headers: Record<string, string> = {};
      if (fault.retryAfter !== undefined) headers['retry-after'] = fault.retryAfter instanceof Date ? fault.retryAfter.toUTCString() : String(fault.retryAfter);
      const code = fault.status === 429 ? 'rate.limited' : fault.status === 503 ? 'dependency.unavailable' : 'server.fault';
      throw new ProblemError({ status: fault.status, code, detail: `injected ${fault.status}`, extra: { quota: { window: 'minute', remaining: 0 } } }, headers);
    }
    const matched = matchRoutes(routes, url.pathname);
    if (matched.length === 0) throw problem(404, 'resource.absent', `no resource at ${url.pathname}`);
    const hit = matched.find((m) => m.route.method === req.method);
    if (!hit) throw new ProblemError({ status: 405, code: 'method.unsupported', detail: `${req.method} is not supported here` }, { allow: matched.map((m) => m.route.method).join(', ') });
    const caller = authenticate(req, hit.route.scope);
    const answer = await hit.route.handle({ params: hit.params, query: url.searchParams, headers: req.headers, body, caller, state });
    // the records as the served document names them (a renamed member, extra members)
    const schema = answerSchema(hit.route.method, hit.route.template);
    return schema && options.documentForms ? { ...answer, body: recordAsWritten(options.documentForms, schema, answer.body) } : answer;
  }

  /** A media file at its signed URL: no credential is taken (the signature is the only one), the bytes the item states. */
  function signedMedia(req: IncomingMessage, url: URL, res: ServerResponse): number {
    const item = state.media.find((m) => url.pathname === `/signed-media/${m.media_ref}.mp4`);
    const refused = req.method !== 'GET' || !item ? 404 : req.headers.authorization !== undefined || url.searchParams.get('sig') !== 'abc+def' ? 403 : 0;
    if (refused !== 0 || !item) {
      send(res, refused, undefined);
      return refused;
    }
    res.writeHead(200, { 'content-type': item.kind, 'content-length': String(item.bytes) });
    res.end(Buffer.alloc(item.bytes, 0x2a));
    return 200;
  }

  /** spec: 401 for a missing, malformed or expired token; 403 when it lacks the endpoint's one scope. */
  function authenticate(req: IncomingMessage, scope: string): Caller {
    const header = req.headers.authorization ?? '';
    const token = /^Bearer (\S+)$/.exec(header)?.[1];
    const found = token === undefined ? undefined : tokens.get(token);
    const challenge = { 'www-authenticate': 'Bearer realm="second-service", error="invalid_token"' };
    if (!found) throw new ProblemError({ status: 401, code: 'auth.token_invalid', detail: 'bearer token missing or unknown' }, challenge);
    if (found.expired) throw new ProblemError({ status: 401, code: 'auth.token_expired', detail: 'the bearer token has expired' }, challenge);
    if (!found.scopes.has(scope)) throw problem(403, 'auth.scope_missing', `this call needs the scope ${SCOPE_PREFIX}${scope}`, { extra: { needed_scope: `${SCOPE_PREFIX}${scope}` } });
    return found.caller;
  }

  /** spec: client credentials in a form body; the answer carries access_token (and token_type), no lifetime. */
  function issueToken(req: IncomingMessage, body: string, res: ServerResponse): number {
    const oauthError = (status: number, error: string, description: string) => {
      send(res, status, { error, error_description: description }, { 'cache-control': 'no-store' });
      return status;
    };
    if (req.method !== 'POST') return oauthError(405, 'invalid_request', 'POST only');
    if (!(req.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded')) return oauthError(400, 'invalid_request', 'form body expected');
    const form = new URLSearchParams(body);
    if (form.get('grant_type') !== 'client_credentials') return oauthError(400, 'unsupported_grant_type', 'client_credentials only');
    const client = Object.values(clients).find((c) => c.client_id === form.get('client_id') && c.client_secret === form.get('client_secret'));
    if (!client) return oauthError(401, 'invalid_client', 'unknown client or wrong secret');
    const asked = (form.get('scope') ?? '').split(' ').filter(Boolean);
    const granted = new Set<string>();
    for (const scope of asked) {
      const short = scope.startsWith(SCOPE_PREFIX) ? scope.slice(SCOPE_PREFIX.length) : undefined;
      if (short === undefined || !client.scopes.includes(short)) return oauthError(400, 'invalid_scope', `scope ${scope} is not granted to this client`);
      granted.add(short);
    }
    if (asked.length === 0) for (const s of client.scopes) granted.add(s);
    const accessToken = `ss2.${randomBytes(24).toString('base64url')}`;
    tokens.set(accessToken, { caller: { clientId: client.client_id, organizationId: client.organization_id }, scopes: granted, expired: false });
    send(res, 200, { access_token: accessToken, token_type: 'Bearer' }, { 'cache-control': 'no-store' });
    return 200;
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) sendProblem(res, req.url ?? '/', { status: 500, code: 'server.fault', detail: String(error) });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // the signed URLs lead here, so that a download can be followed to its bytes
  for (const m of state.media) m.signed_url.href = `${baseUrl}/signed-media/${m.media_ref}.mp4?sig=abc%2Bdef&exp=1`;

  return {
    baseUrl,
    authUrl: `${baseUrl}/issuer`,
    clients,
    state,
    requests,
    expireTokens: () => tokens.forEach((t) => (t.expired = true)),
    inject: (fault) => faults.push({ ...fault, left: fault.times ?? 1, passed: 0 }),
    envFor: (client, configDir) => ({
      FLEETCTL_BASE_URL: baseUrl,
      FLEETCTL_AUTH_URL: `${baseUrl}/issuer`,
      FLEETCTL_CLIENT_ID: client.client_id,
      FLEETCTL_CLIENT_SECRET: client.client_secret,
      FLEETCTL_ORGANIZATION_ID: client.organization_id,
      FLEETCTL_CONFIG_DIR: configDir,
      FLEETCTL_KEYCHAIN: 'off',
    }),
    async call(client, method, path, init = {}) {
      const form = new URLSearchParams({ grant_type: 'client_credentials', client_id: client.client_id, client_secret: client.client_secret });
      const token = await request(`${baseUrl}/issuer/connect/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form.toString() });
      const { access_token } = (await token.body.json()) as { access_token: string };
      const headers = { authorization: `Bearer ${access_token}`, ...(init.body === undefined ? {} : { 'content-type': 'application/json' }), ...init.headers };
      const answer = await request(`${baseUrl}${path}`, { method: method as 'GET', headers, body: init.body === undefined ? undefined : JSON.stringify(init.body) });
      const text = await answer.body.text();
      return { status: answer.statusCode, headers: answer.headers, body: text === '' ? undefined : JSON.parse(text) };
    },
    webhookKey: (org) => configs.get(org)?.key,
    close: () => new Promise<void>((resolve) => {
      for (const timer of returns) clearTimeout(timer);
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
