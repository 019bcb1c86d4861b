// Webhook configurations, one per organization (persisted). Versioned by a revision number from which the
// strong ETag is derived; the auth key is kept here and shown by the API only as auth_key_hint.
import { createHash, randomBytes } from 'node:crypto';
import type { Schema } from '../../openapi/operation-types.js';
import type { TopicType } from '../../webhooks/index.js';
import { ignoreChange, type StateChangeSink } from './state-changes.js';

export type WebhookTopic = Schema<'WebhookTopic'>;

/** The configuration as the API shows it, with the key itself where the API shows only its hint. */
export interface StoredWebhookConfig extends Omit<Schema<'WebhookConfig'>, 'auth_key_hint'> {
  auth_key: string;
  /** The key before the last rotation (producers may still send it within the propagation window). */
  previous_auth_key: string | null;
  key_rotated_at: string | null;
  revision: number;
}

export interface WebhookConfigsState {
  configs: Record<string, StoredWebhookConfig>;
  last_revision: number;
}

const newAuthKey = (): string => `whk_${randomBytes(24).toString('base64url')}`;

export class WebhookConfigStore {
  private readonly configs = new Map<string, StoredWebhookConfig>();
  private lastRevision: number;
  /** Told of each configuration set or deleted, as the state file keeps it. */
  onChange: StateChangeSink = ignoreChange;

  constructor(private readonly now: () => Date, saved?: WebhookConfigsState) {
    this.lastRevision = saved?.last_revision ?? 0;
    for (const [org, config] of Object.entries(saved?.configs ?? {})) this.configs.set(org, config);
  }

  get(organizationId: string): StoredWebhookConfig | undefined {
    return this.configs.get(organizationId);
  }

  /** Creates or replaces the whole configuration; the auth key survives a replace. */
  put(organizationId: string, isEnabled: boolean, topics: WebhookTopic[]): StoredWebhookConfig {
    const existing = this.configs.get(organizationId);
    if (existing) return this.update(existing, { is_enabled: isEnabled, topics });
    const at = this.now().toISOString();
    const config: StoredWebhookConfig = {
      organization_id: organizationId,
      is_enabled: isEnabled,
      topics,
      auth_key: newAuthKey(),
      previous_auth_key: null,
      key_rotated_at: null,
      created_at: at,
      updated_at: at,
      revision: ++this.lastRevision,
    };
    this.set(organizationId, config);
    return config;
  }

  /** A configuration as a scenario describes it (it may start enabled, with a key of its own). */
  install(organizationId: string, isEnabled: boolean, topics: WebhookTopic[], authKey?: string): StoredWebhookConfig {
    const config = this.put(organizationId, isEnabled, topics);
    if (authKey !== undefined) config.auth_key = authKey;
    return config;
  }

  /** Applies a change to an existing configuration and gives it a new revision. */
  update(config: StoredWebhookConfig, change: Partial<StoredWebhookConfig>): StoredWebhookConfig {
    const next = { ...config, ...change, updated_at: this.now().toISOString(), revision: ++this.lastRevision };
    this.set(config.organization_id, next);
    return next;
  }

  rotateKey(config: StoredWebhookConfig): StoredWebhookConfig {
    return this.update(config, {
      auth_key: newAuthKey(),
      previous_auth_key: config.auth_key,
      key_rotated_at: this.now().toISOString(),
    });
  }

  delete(organizationId: string): void {
    this.configs.delete(organizationId);
    this.onChange({ path: ['webhooks', 'configs', organizationId] });
  }

  private set(organizationId: string, config: StoredWebhookConfig): void {
    this.configs.set(organizationId, config);
    this.onChange({ path: ['webhooks', 'configs', organizationId], value: config });
    this.onChange({ path: ['webhooks', 'last_revision'], value: this.lastRevision });
  }

  toJSON(): WebhookConfigsState {
    return { configs: Object.fromEntries(this.configs), last_revision: this.lastRevision };
  }
}

/** The strong ETag of a configuration revision (quoted, RFC 9110 8.8.3). */
export function webhookEtag(config: StoredWebhookConfig): string {
  const tag = createHash('sha256').update(`${config.organization_id}\n${config.revision}`).digest('base64url').slice(0, 27);
  return `"${tag}"`;
}

/** What GET shows: the key only as its last four characters. */
export function webhookView(config: StoredWebhookConfig) {
  return {
    organization_id: config.organization_id,
    is_enabled: config.is_enabled,
    topics: config.topics,
    auth_key_hint: `…${config.auth_key.slice(-4)}`,
    created_at: config.created_at,
    updated_at: config.updated_at,
  };
}
