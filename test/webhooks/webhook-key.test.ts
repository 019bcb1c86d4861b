import { describe, expect, it } from 'vitest';
import { WebhookKeyRing } from '../../src/webhooks/webhook-key.js';

describe('WebhookKeyRing', () => {
  it('requires a key', () => {
    expect(() => new WebhookKeyRing('', undefined)).toThrow(/required/);
    expect(() => new WebhookKeyRing('k', undefined).rotate('')).toThrow(/required/);
  });
  it('accepts the previous key until the grace period ends', () => {
    let now = 0;
    const ring = new WebhookKeyRing('new', 'old', 60_000, () => now);
    expect([ring.check('new'), ring.check('old'), ring.check('other'), ring.check(undefined), ring.check('')])
      .toEqual(['current', 'previous', null, null, null]);
    now = 59_999;
    expect(ring.check('old')).toBe('previous');
    now = 60_000;
    expect(ring.check('old')).toBeNull();
  });
  it('rotates, keeping the replaced key for the grace period; rotating to the same key changes nothing', () => {
    let now = 0;
    const ring = new WebhookKeyRing('a', undefined, 1000, () => now);
    ring.rotate('a');
    expect(ring.check('a')).toBe('current');
    ring.rotate('b');
    expect([ring.check('a'), ring.check('b')]).toEqual(['previous', 'current']);
    now = 500;
    ring.rotate('c');
    expect([ring.check('a'), ring.check('b'), ring.check('c')]).toEqual([null, 'previous', 'current']);
    now = 1500;
    expect(ring.check('b')).toBeNull();
  });
});
