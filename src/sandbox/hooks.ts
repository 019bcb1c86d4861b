// Seams for webhook delivery: the sandbox announces webhook configuration changes and the
// telemetry it emits here; a delivery engine subscribes. Nothing in the sandbox depends on a listener.
import type { StoredWebhookConfig } from './store/webhook-configs.js';

export type WebhookConfigChangeKind =
  | 'created' | 'replaced' | 'enabled' | 'disabled' | 'deleted' | 'topic_upserted' | 'topic_removed' | 'key_rotated';

export interface WebhookConfigChange {
  kind: WebhookConfigChangeKind;
  organizationId: string;
  /** The configuration after the change; null once deleted. */
  config: StoredWebhookConfig | null;
  /** For key_rotated: the key that producers may keep sending during the propagation window. */
  previousAuthKey?: string;
  at: Date;
}

/** A telemetry occurrence that subscribers may be told about (CloudEvents type and its source record). */
export interface EmittedEvent {
  type: 'live.gps' | 'journey.closed' | 'alarm.triggered' | 'event.generic' | 'media.ready';
  organizationId: string;
  hardwareId: string;
  /** Device wire time. */
  time: string;
  record: unknown;
}

type Listener<T> = (value: T) => void;

export class SandboxHooks {
  private readonly configListeners = new Set<Listener<WebhookConfigChange>>();
  private readonly eventListeners = new Set<Listener<EmittedEvent>>();

  onWebhookConfigChange(listener: Listener<WebhookConfigChange>): () => void {
    this.configListeners.add(listener);
    return () => this.configListeners.delete(listener);
  }

  onEvent(listener: Listener<EmittedEvent>): () => void {
    this.eventListeners.add(listener);
    return () => this.eventListeners.delete(listener);
  }

  webhookConfigChanged(change: WebhookConfigChange): void {
    for (const listener of this.configListeners) listener(change);
  }

  eventEmitted(event: EmittedEvent): void {
    for (const listener of this.eventListeners) listener(event);
  }
}
