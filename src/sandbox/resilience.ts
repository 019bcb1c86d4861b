// Knobs for testing a client's resilience: a per-client token bucket (--rate-limit), injected faults
// (--fault-rate) and added latency (--latency).
import { Prng, hash32 } from './common/prng.js';

export type RateDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/** A token bucket per client: `rate` tokens per second, holding at most `rate` (one second of burst). */
export class RateLimiter {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(
    private readonly rate: number,
    private readonly clock: () => number = () => performance.now(),
  ) {}

  take(clientKey: string): RateDecision {
    const now = this.clock();
    const capacity = Math.max(1, this.rate);
    const bucket = this.buckets.get(clientKey) ?? { tokens: capacity, at: now };
    bucket.tokens = Math.min(capacity, bucket.tokens + ((now - bucket.at) / 1000) * this.rate);
    bucket.at = now;
    this.buckets.set(clientKey, bucket);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return { allowed: true };
    }
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((1 - bucket.tokens) / this.rate)) };
  }
}

export type Fault = 'none' | 'unavailable' | 'drop';

/**
 * Decides which API requests fail, before anything else happens (so a retry is always safe): half of the
 * failures answer 503 service.unavailable, half drop the connection. Deterministic for the seed.
 */
export class FaultInjector {
  private readonly rng: Prng;

  constructor(private readonly rate: number, seed: number) {
    this.rng = new Prng(hash32(`faults:${seed}`));
  }

  next(): Fault {
    if (this.rate <= 0) return 'none';
    if (this.rng.next() >= this.rate) return 'none';
    return this.rng.chance(0.5) ? 'unavailable' : 'drop';
  }
}

export const delay = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
