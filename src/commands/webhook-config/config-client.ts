// The webhook-config calls of one organization, with optimistic concurrency handled for the user:
// every mutation carries an If-Match (the user's --if-match, or the ETag just read), is followed by a re-read for
// the ETag the next one uses (spec: "After every successful mutation the config should be re-read to obtain the
// new ETag": a mutation's own answer may carry another ETag, or none; a change another client makes between the
// mutation and the re-read is then not caught, which the spec's rule accepts), and each error the spec documents
// comes back with a hint that says what to do next.
import { ApiError } from '../../errors.js';
import type { ApiClient, ApiResponse } from '../../api/client.js';
import { headerValue } from '../../api/problem.js';
import { MAX_TOPICS, type TopicType } from '../../webhooks/index.js';
import { issuedAuthKeyOf, webhookConfigOf, type WebhookConfig, type WebhookTopic } from '../../records/webhook-config.js';
import { recordedChange, type Ledger } from '../../ledger/recorder.js';

export type { WebhookConfig, WebhookTopic } from '../../records/webhook-config.js';

/** A configuration as read, with the ETag to send back as If-Match. */
export interface Versioned {
  config: WebhookConfig;
  etag: string;
}

/** The If-Match of one mutation, and whether the user gave it (--if-match) or fleetctl read it. */
export interface Precondition {
  etag: string;
  fromUser: boolean;
}

// spec: "Propagation takes up to 60 seconds" (PATCH, DELETE, key rotation)
export const PROPAGATION_SECONDS = 60;

/** The audit ledger a command's mutations are recorded in, under the command's name. */
export interface LedgerOfChanges {
  ledger: Pick<Ledger, 'record'>;
  command: string;
}

export class WebhookConfigClient {
  constructor(
    private readonly api: ApiClient,
    readonly organizationId: string,
    private readonly ledger?: LedgerOfChanges,
  ) {}

  async read(): Promise<Versioned> {
    const answer = await this.run(undefined, undefined, () => this.api.call('getWebhookConfig', { pathParams: this.path() }));
    const etag = etagOf(answer);
    if (etag === undefined) throw new Error('the service answered the webhook configuration without an ETag header');
    return { config: webhookConfigOf(answer.body), etag };
  }

  /** The configuration, or undefined when the organization has none (spec: GET is 404 when none exists, whatever its code). */
  async readIfExists(): Promise<Versioned | undefined> {
    try {
      return await this.read();
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) return undefined;
      throw error;
    }
  }

  /** The If-Match for the next mutation: the user's --if-match as given, or the current ETag (read now). */
  async precondition(userEtag: string | undefined): Promise<{ pre: Precondition; current?: Versioned }> {
    if (userEtag !== undefined) return { pre: { etag: userEtag, fromUser: true } };
    const current = await this.read();
    return { pre: { etag: current.etag, fromUser: false }, current };
  }

  /** spec: the first PUT omits If-Match and must be disabled (422 webhook.initial_activation_forbidden). */
  async create(topics: WebhookTopic[]): Promise<Versioned> {
    await this.recorded('created', undefined, () => this.run(undefined, 'create', () => this.api.call('replaceWebhookConfig', { pathParams: this.path(), body: { is_enabled: false, topics } })));
    return this.read();
  }

  async replace(body: { is_enabled: boolean; topics: WebhookTopic[] }, pre: Precondition): Promise<Versioned> {
    return this.mutateAndRead(pre, 'replaced', undefined, (headers) => this.api.call('replaceWebhookConfig', { pathParams: this.path(), body, headers }));
  }

  async setEnabled(enabled: boolean, pre: Precondition): Promise<Versioned> {
    const body = { is_enabled: enabled };
    return this.mutateAndRead(pre, enabled ? 'enabled' : 'disabled', undefined, (headers) => this.api.call('updateWebhookConfig', { pathParams: this.path(), body, headers }));
  }

  /** Nothing is read after: a configuration that no longer exists has no ETag. */
  async remove(pre: Precondition): Promise<void> {
    await this.mutate(pre, 'deleted', undefined, (headers) => this.api.call('deleteWebhookConfig', { pathParams: this.path(), headers }));
  }

  /**
   * The new key, not yet re-read: the caller saves the key first and then reads (read()), so a failed re-read
   * never loses a key the service shows only once.
   */
  async regenerateKey(pre: Precondition): Promise<{ authKey: string }> {
    // the ledger records that the key changed, never the key (the answer is not handed to it)
    const answer = await this.mutate(pre, 'key_regenerated', undefined, (headers) => this.api.call('regenerateWebhookAuthKey', { pathParams: this.path(), headers }));
    const authKey = issuedAuthKeyOf(answer.body);
    if (authKey === undefined) throw new Error('the service answered the key rotation without an auth_key');
    return { authKey };
  }

  async upsertTopic(type: TopicType, topic: { is_enabled: boolean; delivery: { url: string } }, pre: Precondition): Promise<Versioned> {
    const pathParams = { ...this.path(), topicType: type };
    return this.mutateAndRead(pre, 'topic_set', type, (headers) => this.api.call('upsertWebhookTopic', { pathParams, body: topic, headers }));
  }

  async removeTopic(type: TopicType, pre: Precondition): Promise<Versioned> {
    const pathParams = { ...this.path(), topicType: type };
    return this.mutateAndRead(pre, 'topic_removed', type, (headers) => this.api.call('deleteWebhookTopic', { pathParams, headers }));
  }

  /** A mutation, then the configuration as re-read: its ETag, not the mutation answer's, is the next If-Match. */
  private async mutateAndRead(pre: Precondition, outcome: string, what: TopicType | undefined, call: (headers: Record<string, string>) => Promise<unknown>): Promise<Versioned> {
    await this.mutate(pre, outcome, what, call);
    return this.read();
  }

  /**
   * A mutation sent with the precondition's If-Match; `what` is the topic it is about, for the hints; `outcome`
   * what the ledger says of it once it succeeded.
   */
  private mutate<T>(pre: Precondition, outcome: string, what: TopicType | undefined, call: (headers: Record<string, string>) => Promise<T>): Promise<T> {
    return this.recorded(outcome, what, () => this.run(pre, what, () => call({ 'if-match': pre.etag })));
  }

  /** The organization's configuration (or one topic of it) as the ledger names the target. */
  private recorded<T>(outcome: string, topic: TopicType | undefined, work: () => Promise<T>): Promise<T> {
    if (!this.ledger) return work();
    const target = `organization ${this.organizationId}${topic ? ` topic ${topic}` : ''}`;
    return recordedChange(this.ledger.ledger, { command: this.ledger.command, target, outcome }, work);
  }

  private path(): { organizationId: string } {
    return { organizationId: this.organizationId };
  }

  private async run<T>(pre: Precondition | undefined, what: TopicType | 'create' | undefined, call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      const hint = this.hintFor(error, pre, what);
      if (hint === undefined) throw error;
      throw new ApiError({ status: error.status, problem: error.problem, retryAfter: error.retryAfter, message: error.message, hint });
    }
  }

  private hintFor(error: ApiError, pre: Precondition | undefined, what: TopicType | 'create' | undefined): string | undefined {
    const org = this.organizationId;
    // a code fleetctl knows says most; the spec states only statuses (404 none, 409 last topic, 412 stale
    // If-Match), so a service's own codes are read by their status
    const known = this.hintForCode(error.code, pre, what);
    if (known !== undefined) return known;
    switch (error.status) {
      case 404:
        return what && what !== 'create'
          ? `organization ${org} has no webhook configuration, or it has no ${what} topic: see it with \`fleetctl webhook-config get --org ${org}\``
          : `organization ${org} has no webhook configuration: create one with \`fleetctl webhook-config create --org ${org} --url https://... --topics events\``;
      case 409:
        return this.hintForCode('webhook.last_topic', pre, what);
      case 412:
        return this.hintForCode(what === 'create' ? 'precondition.required' : 'precondition.failed', pre, what);
    }
    return undefined;
  }

  private hintForCode(code: string | undefined, pre: Precondition | undefined, what: TopicType | 'create' | undefined): string | undefined {
    const org = this.organizationId;
    switch (code) {
      case 'webhook_config.not_found':
        return `organization ${org} has no webhook configuration: create one with \`fleetctl webhook-config create --org ${org} --url https://... --topics events\``;
      case 'resource.not_found':
        return what && what !== 'create' ? `the configuration has no ${what} topic: see its topics with \`fleetctl webhook-config get --org ${org}\`` : undefined;
      case 'precondition.required':
        return what === 'create'
          ? `organization ${org} already has a webhook configuration: review it with \`fleetctl webhook-config get --org ${org}\`, change topics with \`fleetctl webhook-config topics set --org ${org}\`, or manage it with \`fleetctl webhook-config apply --org ${org}\``
          : undefined;
      case 'precondition.failed':
        return pre?.fromUser
          ? `the configuration changed after ETag ${pre.etag} was read: review it with \`fleetctl webhook-config get --org ${org}\` and retry with its new ETag (or without --if-match to act on the current configuration)`
          : `the configuration changed between fleetctl reading it and writing it (another client is editing it): review it with \`fleetctl webhook-config get --org ${org}\` and run the command again`;
      case 'webhook.last_topic':
        return 'a configuration keeps at least one topic: set another topic first (`fleetctl webhook-config topics set TYPE --url URL`), or delete the whole configuration (`fleetctl webhook-config delete`)';
      case 'webhook.too_many_topics':
        return `a configuration holds at most ${MAX_TOPICS} topics`;
      case 'webhook.initial_activation_forbidden':
        return 'create the configuration disabled, then enable it with `fleetctl webhook-config enable`';
      default:
        return undefined;
    }
  }
}

function etagOf(answer: ApiResponse<unknown>): string | undefined {
  return headerValue(answer.headers.etag);
}
