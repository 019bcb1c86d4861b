// The webhook configurations as the delivery side sees them: each change made through the API (enable,
// disable, delete, topic changes, key rotation) takes effect `propagationMs` later, as on the real service
// (spec Limits: "Webhook change propagation: up to 60 seconds"). Until then deliveries follow the previous
// configuration and carry the previous key (spec Delivery rule 5 allows it for up to 60 s).
//
// Routing (a sandbox choice): an event of an organization goes to the subscriptions of that organization
// and of each of its ancestors, since their credentials cover the organization's devices too.
import { TOPIC_OF_EVENT_TYPE, type EventType } from '../../webhooks/index.js';
import type { SandboxApp } from '../app.js';
import type { WebhookConfigChange } from '../hooks.js';
import type { StoredWebhookConfig, WebhookConfigStore } from '../store/webhook-configs.js';

export const DEFAULT_PROPAGATION_MS = 5_000;

/** One destination an event is due at: the subscribing organization and the topic's URL. */
export interface Subscription {
  organizationId: string;
  url: string;
}

export class PropagatedSubscriptions {
  private readonly effective = new Map<string, StoredWebhookConfig>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private store: WebhookConfigStore;
  private readonly unsubscribe: () => void;

  constructor(
    private readonly app: SandboxApp,
    private readonly propagationMs: number,
  ) {
    this.store = app.webhooks;
    // configurations loaded from a state file are in effect from the start
    for (const config of Object.values(app.webhooks.toJSON().configs)) this.effective.set(config.organization_id, config);
    this.unsubscribe = app.hooks.onWebhookConfigChange((change) => this.changed(change));
  }

  /** Where an event of `type` from `organizationId` is to be delivered now; each (organization, URL) once. */
  destinationsFor(type: EventType, organizationId: string): Subscription[] {
    this.noticeReset();
    const topic = TOPIC_OF_EVENT_TYPE[type];
    const found: Subscription[] = [];
    const seen = new Set<string>();
    for (const org of this.organizationAndAncestors(organizationId)) {
      const config = this.effective.get(org);
      if (!config?.is_enabled) continue;
      for (const t of config.topics) {
        if (t.type !== topic || !t.is_enabled || seen.has(`${org} ${t.delivery.url}`)) continue;
        seen.add(`${org} ${t.delivery.url}`);
        found.push({ organizationId: org, url: t.delivery.url });
      }
    }
    return found;
  }

  /** Whether the subscription still stands (checked before each attempt; a withdrawn one is abandoned). */
  isActive(type: EventType, sub: Subscription): boolean {
    this.noticeReset();
    const config = this.effective.get(sub.organizationId);
    const topic = TOPIC_OF_EVENT_TYPE[type];
    return Boolean(config?.is_enabled && config.topics.some((t) => t.type === topic && t.is_enabled && t.delivery.url === sub.url));
  }

  /** The key in effect for an organization: sent verbatim in X-Webhook-Key. */
  keyOf(organizationId: string): string {
    const config = this.effective.get(organizationId);
    if (!config) throw new Error(`organization ${organizationId} has no webhook configuration any more`);
    return config.auth_key;
  }

  close(): void {
    this.unsubscribe();
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }

  private changed(change: WebhookConfigChange): void {
    this.later(() => {
      if (change.config) this.effective.set(change.organizationId, change.config);
      else this.effective.delete(change.organizationId);
    });
  }

  /** POST /_sandbox/reset swaps the store without announcing each configuration: take the new one as a whole. */
  private noticeReset(): void {
    if (this.app.webhooks === this.store) return;
    const store = (this.store = this.app.webhooks);
    this.later(() => {
      this.effective.clear();
      for (const config of Object.values(store.toJSON().configs)) this.effective.set(config.organization_id, config);
    });
  }

  private later(apply: () => void): void {
    if (this.propagationMs <= 0) return apply();
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      apply();
    }, this.propagationMs);
    timer.unref();
    this.timers.add(timer);
  }

  private *organizationAndAncestors(organizationId: string): Generator<string> {
    const seen = new Set<string>();
    let id: string | null | undefined = organizationId;
    while (id && !seen.has(id)) {
      seen.add(id);
      yield id;
      id = this.app.world.organizations.get(id)?.parent_id;
    }
  }
}
