// Checking the X-Webhook-Key of an incoming delivery (spec Authentication rule 6: "a shared key sent in
// the X-Webhook-Key header. There is no HMAC and no payload signing."), across a key rotation.
import { constantTimeEqual } from '../shared/constant-time.js';

/** spec Delivery rule 5: "After key rotation the previous key can remain accepted ... for up to 60 seconds." */
export const DEFAULT_PREVIOUS_KEY_GRACE_MS = 60_000;

export type KeyMatch = 'current' | 'previous';

export class WebhookKeyRing {
  private current: string;
  private previous: string | null;
  private previousUntil = 0;

  constructor(
    key: string,
    previousKey: string | undefined,
    private readonly graceMs: number = DEFAULT_PREVIOUS_KEY_GRACE_MS,
    private readonly now: () => number = Date.now,
  ) {
    if (!key) throw new TypeError('a webhook key is required');
    this.current = key;
    this.previous = previousKey || null;
    if (this.previous) this.previousUntil = now() + graceMs;
  }

  /** Makes `newKey` current; the key it replaces stays accepted for the grace period. */
  rotate(newKey: string): void {
    if (!newKey) throw new TypeError('a webhook key is required');
    if (newKey === this.current) return;
    this.previous = this.current;
    this.previousUntil = this.now() + this.graceMs;
    this.current = newKey;
  }

  /** Which key the header matches, or null. Both comparisons always run. */
  check(given: string | undefined): KeyMatch | null {
    const value = given ?? '';
    const isCurrent = constantTimeEqual(value, this.current);
    const isPrevious = this.previous !== null && constantTimeEqual(value, this.previous);
    if (given === undefined || given === '') return null;
    if (isCurrent) return 'current';
    if (isPrevious && this.now() < this.previousUntil) return 'previous';
    return null;
  }
}
