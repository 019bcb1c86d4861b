// What route handlers share: the stores, signing keys, clock and the hooks for webhook delivery.
import type { ApiContext, RequestContext } from './common/context.js';
import type { Reply } from './common/reply.js';
import type { WorldStore } from './world-store.js';
import type { TokenStore } from './auth/tokens.js';
import type { SandboxClient } from './auth/clients.js';
import type { CursorCodec } from './paging.js';
import type { MediaSigner } from './media-signing.js';
import type { CommandStore } from './store/commands.js';
import type { WebhookConfigStore } from './store/webhook-configs.js';
import type { SandboxHooks } from './hooks.js';
import type { TenantDirectory } from './common/tenancy.js';
import type { RequestJournal } from './journal/journal.js';
import type { FaultBook } from './faults/rules.js';
import type { Scenario } from './scenario/scenario.js';
import type { OperationId } from '../openapi/operations.js';
import type { DeviceReturns } from './telemetry/device-returns.js';

export interface SandboxApp {
  seed: number;
  startedAt: Date;
  world: WorldStore;
  tokens: TokenStore;
  tenants: TenantDirectory;
  /** Replaced, never changed in place, when a scenario is loaded. */
  clients: readonly SandboxClient[];
  /** The scenario in effect, or null for the seeded world alone. */
  scenario: Scenario | null;
  journal: RequestJournal;
  faults: FaultBook;
  /** Device reports per second (--telemetry-rate); 0: the world stands still. */
  telemetryRate: number;
  cursors: CursorCodec;
  media: MediaSigner;
  commands: CommandStore;
  /** When devices report again after a command (the scenario's device_reporting); replaced with the world. */
  returns: DeviceReturns;
  webhooks: WebhookConfigStore;
  hooks: SandboxHooks;
  allowPrivateWebhooks: boolean;
  tokenTtlSeconds: number;
  now(): Date;
  /** The origin clients reach the sandbox at, e.g. http://127.0.0.1:4010 (no trailing slash). */
  baseUrl(): string;
  /**
   * The state changed in a way no store reports (the world replaced): it is saved whole. Stores report their own
   * changes (a command, an assignment, a token) to the state saver as they make them.
   */
  changed(): void;
  /** Resolves once every change made so far is saved; rejects with StateNotSavedError when it cannot be. */
  durable(): Promise<void>;
  /** Starts afresh from the seed and the scenario in effect (POST /_sandbox/reset). */
  reset(): void;
  /** Replaces the world with a scenario's (POST /_sandbox/scenario); throws ScenarioError, leaving all as it was. */
  loadScenario(scenario: Scenario): void;
  log(line: string): void;
}

/**
 * An API operation (/v1/...): bearer token and exactly one scope required. method and path repeat the
 * OpenAPI document's (checked when the router is built) so a reader finds the handler by its path.
 */
export interface ApiRoute {
  method: string;
  path: string;
  operationId: OperationId;
  handler(ctx: ApiContext, app: SandboxApp): Promise<Reply> | Reply;
}

/** A route outside the API document (/connect/token, /openapi/v1.json, /_sandbox/...): no bearer token. */
export interface PublicRoute {
  method: string;
  path: string;
  handler(ctx: RequestContext, app: SandboxApp): Promise<Reply> | Reply;
}

/**
 * A control route (/_sandbox/...): an operation of the control document (common/control-openapi.json), checked against
 * it when the router is built, its JSON body checked against the document's schema before the handler runs.
 */
export interface ControlRoute extends PublicRoute {
  operationId: string;
}

/** What the router holds for a path: an API operation with the scope it requires, or a public route. */
export type RouteEntry = { kind: 'api'; route: ApiRoute; scope: string } | { kind: 'public'; route: PublicRoute };
