// Opaque bearer tokens: random strings mapped to (client, tenant organization, granted scopes, expiry).
// Part of the persisted state, so a token outlives a sandbox restart (embedded mode) until it expires.
import { randomBytes } from 'node:crypto';
import { ignoreChange, type StateChangeSink } from '../store/state-changes.js';

export interface TokenRecord {
  client_id: string;
  organization_id: string;
  scopes: string[];
  expires_at_ms: number;
}

export type TokenLookup =
  | { kind: 'valid'; record: TokenRecord }
  | { kind: 'expired' }
  | { kind: 'unknown' };

export class TokenStore {
  private readonly tokens = new Map<string, TokenRecord>();
  /** Told of each token issued, as the state file keeps it. */
  onChange: StateChangeSink = ignoreChange;

  constructor(private readonly now: () => Date) {}

  issue(record: Omit<TokenRecord, 'expires_at_ms'>, ttlSeconds: number): { token: string; record: TokenRecord } {
    const token = `sbx_at_${randomBytes(24).toString('base64url')}`;
    const full: TokenRecord = { ...record, expires_at_ms: this.now().getTime() + ttlSeconds * 1000 };
    this.tokens.set(token, full);
    this.onChange({ path: ['tokens', token], value: full });
    return { token, record: full };
  }

  lookup(token: string): TokenLookup {
    const record = this.tokens.get(token);
    if (!record) return { kind: 'unknown' };
    if (record.expires_at_ms <= this.now().getTime()) return { kind: 'expired' };
    return { kind: 'valid', record };
  }

  /** The client a token was issued to, expired or not (the request journal names it). */
  owner(token: string): string | undefined {
    return this.tokens.get(token)?.client_id;
  }

  /** Forgets every token (a scenario replaces the clients). */
  revokeAll(): void {
    this.tokens.clear();
  }

  /** Unexpired tokens, for the state file. Expired ones stay in memory (they answer auth.token_expired). */
  toJSON(): Record<string, TokenRecord> {
    const now = this.now().getTime();
    const out: Record<string, TokenRecord> = {};
    for (const [token, record] of this.tokens) if (record.expires_at_ms > now) out[token] = record;
    return out;
  }

  load(saved: Record<string, TokenRecord>): void {
    for (const [token, record] of Object.entries(saved)) this.tokens.set(token, record);
  }
}
