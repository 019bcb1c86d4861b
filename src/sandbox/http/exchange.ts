// One request as the journal and the fault rules see it: which operation and device it is about, which client
// sent it, what fault (if any) answered it, and at the end the journal entry, secrets redacted.
import type { IncomingMessage } from 'node:http';
import type { RequestContext } from '../common/context.js';
import type { RouteEntry, SandboxApp } from '../app.js';
import { bearerToken } from '../auth/bearer.js';
import { tokenRequestClientId } from '../auth/token-endpoint.js';
import { TOKEN_OPERATION_ID, type RequestFacts } from '../faults/rules.js';
import { authorizationSummary, redactedBody, redactedQuery } from '../journal/capture.js';
import type { JournalOutcome, NewJournalEntry } from '../journal/journal.js';

// operations whose {id} path parameter is a device id
const DEVICE_ID_OPERATIONS = new Set(['getDevice', 'assignDevice', 'unassignDevice']);

export class Exchange {
  private readonly startedMs = performance.now();
  private ctx: RequestContext | null = null;
  /** API (/v1) and token requests are journalled and may be faulted; control routes are neither. */
  journaled = false;
  facts: RequestFacts;
  /** The fault rule (or `fault-rate`) that answered. */
  fault: string | null = null;
  damage: 'truncated' | 'malformed' | null = null;

  constructor(private readonly req: IncomingMessage, private readonly at: Date) {
    this.facts = { operationId: null, method: req.method ?? 'GET', path: '', hardwareId: null, clientId: null };
  }

  /** Learns what the request is about, before anything is done with it. */
  async identify(ctx: RequestContext, entry: RouteEntry | null, app: SandboxApp): Promise<void> {
    this.ctx = ctx;
    const { pathname } = ctx.url;
    const isToken = entry?.kind === 'public' && entry.route.path === '/connect/token';
    this.journaled = pathname.startsWith('/v1/') || isToken;
    this.facts.path = pathname;
    if (!this.journaled) return;
    if (isToken) {
      this.facts.operationId = TOKEN_OPERATION_ID;
      // the body is read once and kept: the token endpoint reads the same bytes
      const raw = await ctx.rawBody().catch(() => undefined);
      this.facts.clientId = raw ? tokenRequestClientId(this.req.headers.authorization, raw) : null;
      return;
    }
    const operationId = entry?.kind === 'api' ? entry.route.operationId : null;
    this.facts.operationId = operationId;
    const token = bearerToken(this.req.headers.authorization);
    this.facts.clientId = token && token !== 'malformed' ? (app.tokens.owner(token) ?? null) : null;
    const { params, query } = ctx;
    this.facts.hardwareId =
      params.hardwareId ??
      (operationId && DEVICE_ID_OPERATIONS.has(operationId) && params.id ? (app.world.devices.get(params.id)?.hardware_id ?? null) : null) ??
      query.get('hardware_id');
  }

  elapsedMs(): number {
    return Math.round(performance.now() - this.startedMs);
  }

  /** Reads the request body (kept for whoever reads it next). */
  async readBody(): Promise<Buffer | undefined> {
    return this.ctx?.rawBody();
  }

  /** The journal entry, once the answer has gone (status null: the connection was dropped). */
  async entry(status: number | null, outcome: JournalOutcome, response?: { body: Buffer | undefined; type: string | undefined }): Promise<NewJournalEntry> {
    const header = (name: string) => {
      const value = this.req.headers[name];
      return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
    };
    const raw = this.ctx ? await this.ctx.readBodyIfRead() : undefined;
    return {
      at: this.at.toISOString(),
      method: this.facts.method,
      path: this.facts.path,
      query: redactedQuery(this.ctx?.url.search ?? ''),
      operation_id: this.facts.operationId,
      client_id: this.facts.clientId,
      hardware_id: this.facts.hardwareId,
      status,
      outcome,
      duration_ms: Math.round((performance.now() - this.startedMs) * 10) / 10,
      idempotency_key: header('idempotency-key'),
      if_match: header('if-match'),
      authorization: authorizationSummary(this.req.headers.authorization),
      fault: this.fault,
      request_body: redactedBody(raw, this.req.headers['content-type']),
      response_body: response ? redactedBody(response.body, response.type) : null,
    };
  }
}
