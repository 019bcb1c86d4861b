// Webhook delivery in the sandbox: one DeliveryEngine per sandbox, fed with events made from
// the seeded fleet (on demand through POST /_sandbox/emit, and on a timer with --emit-rate) and with any
// event the sandbox announces through its hooks. Each event goes, as a CloudEvent, to every enabled topic
// of its type in the enabled configurations that cover its organization, with the key in effect.
import {
  EVENT_TYPES, buildEnvelope, isEventType, validateEnvelope, type EventType, type Resolver, type WebhookEvent,
} from '../../webhooks/index.js';
import { DeliveryEngine, type DeliveryLogEntry, type DeliveryRetryPolicy } from './delivery-engine.js';
import type { SandboxApp } from '../app.js';
import type { EmittedEvent } from '../hooks.js';
import { FleetEventSource, type DeviceFilter, type SourceEvent } from './event-source.js';
import { DEFAULT_PROPAGATION_MS, PropagatedSubscriptions } from './subscriptions.js';

export interface SandboxWebhookOptions {
  /** Local development only: lifts the delivery-time address checks and allows http:// to loopback. */
  allowPrivate?: boolean;
  /** Events per second emitted on a timer, round robin over the five types; 0 or undefined: off. */
  emitRatePerSecond?: number;
  /** Delay before configuration changes and key rotations reach deliveries (default 5 s). */
  propagationMs?: number;
  /** Overrides of the retry schedule (tests shorten it). */
  retry?: Partial<DeliveryRetryPolicy>;
  /** DNS resolver for delivery-time checks (tests inject one). */
  resolve?: Resolver;
}

/** What POST /_sandbox/emit answers for each event. */
export interface EmittedSummary {
  id: string;
  type: EventType;
  hardware_id: string;
  organization_id: string;
  /** Destinations the event was queued for (0 with refused 0: no enabled subscription covers it). */
  destinations: number;
  /** Destinations that refused it because their queue is full (logged as dropped_overflow). */
  refused: number;
}

export class SandboxWebhookDelivery {
  readonly engine: DeliveryEngine;
  private readonly subscriptions: PropagatedSubscriptions;
  private readonly source: FleetEventSource;
  private readonly unsubscribe: () => void;
  private timer: NodeJS.Timeout | undefined;
  private nextTimedType = 0;

  constructor(
    private readonly app: SandboxApp,
    private readonly opts: SandboxWebhookOptions = {},
  ) {
    const rate = opts.emitRatePerSecond;
    if (rate !== undefined && !(Number.isFinite(rate) && rate >= 0)) throw new RangeError('sandbox: emitRatePerSecond must be 0 or more');
    const propagation = opts.propagationMs;
    if (propagation !== undefined && !(Number.isFinite(propagation) && propagation >= 0)) throw new RangeError('sandbox: propagationMs must be 0 or more');
    this.engine = new DeliveryEngine({
      allowPrivate: opts.allowPrivate === true,
      retry: opts.retry,
      resolve: opts.resolve,
      onLog: (entry) => app.log(describeEntry(entry)),
    });
    this.subscriptions = new PropagatedSubscriptions(app, opts.propagationMs ?? DEFAULT_PROPAGATION_MS);
    this.source = new FleetEventSource(app);
    this.unsubscribe = app.hooks.onEvent((event) => this.announced(event));
  }

  /** Says loudly when address checks are off, and starts the --emit-rate timer (once the base URL is known). */
  start(): void {
    if (this.opts.allowPrivate) {
      this.app.log('WARNING: --allow-private-webhooks is on: webhooks may be delivered to private and loopback addresses and over plain http:// to loopback. For local development only.');
    }
    const rate = this.opts.emitRatePerSecond ?? 0;
    if (rate > 0) this.app.log(`webhooks: emitting ${rate} event(s) per second, round robin over ${EVENT_TYPES.join(', ')}`);
    if (rate <= 0 || this.timer) return;
    const intervalMs = Math.max(10, 1000 / rate);
    let due = 0;
    this.timer = setInterval(() => {
      due += (rate * intervalMs) / 1000;
      for (; due >= 1; due--) {
        const type = EVENT_TYPES[this.nextTimedType++ % EVENT_TYPES.length]!;
        this.emit(type, 1);
      }
    }, intervalMs);
    this.timer.unref();
  }

  /** Makes `count` events of `type` from the seeded fleet (of one organization's tree if given) and queues them. */
  emit(type: EventType, count: number, organizationId?: string): EmittedSummary[] {
    const tenant = organizationId ? this.app.tenants.forOrganization(organizationId) : null;
    const filter: DeviceFilter = tenant ? (org) => tenant.includes(org) : null;
    const emitted: EmittedSummary[] = [];
    for (let i = 0; i < count; i++) {
      const made = this.source.next(type, filter);
      if (!made) break;
      emitted.push(this.publish(made));
    }
    return emitted;
  }

  /** The delivery log (GET /_sandbox/deliveries), oldest first. */
  deliveries(): DeliveryLogEntry[] {
    return this.engine.deliveries();
  }

  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.unsubscribe();
    this.subscriptions.close();
    // queues are not part of the saved state: say what is lost rather than dropping it silently
    for (const { url, pending } of await this.engine.close()) {
      this.app.log(`webhooks: stopped with ${pending} event(s) still queued for ${url}; they will not be delivered`);
    }
  }

  private publish(made: SourceEvent): EmittedSummary {
    const event = buildEnvelope(made.type, made.data, { baseUrl: this.app.baseUrl(), time: made.time, now: () => this.app.now() }) as WebhookEvent;
    const { queued, refused } = this.enqueue(event, made.organizationId);
    return {
      id: event.id,
      type: made.type,
      hardware_id: made.hardwareId,
      organization_id: made.organizationId,
      destinations: queued,
      refused,
    };
  }

  private enqueue(event: WebhookEvent, organizationId: string, destinations = this.subscriptions.destinationsFor(event.type, organizationId)): { queued: number; refused: number } {
    let queued = 0;
    let refused = 0;
    for (const sub of destinations) {
      const ok = this.engine.enqueue(event, {
        url: sub.url,
        key: () => this.subscriptions.keyOf(sub.organizationId),
        isActive: () => this.subscriptions.isActive(event.type, sub),
      });
      if (ok) queued++;
      else refused++;
    }
    return { queued, refused };
  }

  /** An event another part of the sandbox announced; its record must be the type's camelCase payload. */
  private announced(e: EmittedEvent): void {
    if (!isEventType(e.type)) return;
    // a moving world announces thousands a second: an event nobody subscribed to is not built at all
    const destinations = this.subscriptions.destinationsFor(e.type, e.organizationId);
    if (destinations.length === 0) return;
    const envelope = buildEnvelope(e.type, e.record as never, { baseUrl: this.app.baseUrl(), time: e.time, now: () => this.app.now() });
    const checked = validateEnvelope(JSON.parse(JSON.stringify(envelope)));
    if (!checked.ok) {
      this.app.log(`webhooks: ${e.type} event of ${e.hardwareId} not delivered: ${checked.reason}`);
      return;
    }
    this.enqueue(envelope as WebhookEvent, e.organizationId, destinations);
  }
}

function describeEntry(e: DeliveryLogEntry): string {
  const status = e.status === null ? '' : ` HTTP ${e.status}`;
  const reason = e.reason ? `: ${e.reason}` : '';
  return `webhooks: ${e.outcome} ${e.type} ${e.event_id} to ${e.url} (attempt ${e.attempt}${status})${reason}`;
}
