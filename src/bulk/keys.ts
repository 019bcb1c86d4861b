// Idempotency keys of a bulk run: one per device, derived from a base so that a rerun replays instead of
// executing again. Without a base the run id is the base, and --resume reuses it.
import { nodeCrypto } from '../shared/node-crypto.js';
import { isHeaderSafeKey, MAX_IDEMPOTENCY_KEY_LENGTH } from '../api/device-commands.js';

/**
 * `BASE:HARDWARE_ID`; when that is over 200 characters or not printable ASCII (hardware ids are free-form, a
 * header is not), a printable prefix of it and a hash of the whole.
 */
export function deviceKey(base: string, hardwareId: string): string {
  const plain = `${base}:${hardwareId}`;
  if (plain.length <= MAX_IDEMPOTENCY_KEY_LENGTH && isHeaderSafeKey(plain)) return plain;
  const digest = nodeCrypto().createHash('sha256').update(base).update('\n').update(hardwareId).digest('hex');
  const prefix = Array.from(plain, (char) => (isHeaderSafeKey(char) ? char : '_')).join('');
  return `${prefix.slice(0, MAX_IDEMPOTENCY_KEY_LENGTH - digest.length - 1)}~${digest}`;
}

/** A run id such as 20240601T120000Z-3f9a1c: sortable, and unique enough for one operator. */
export function newRunId(now: Date): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
  return `${stamp}-${nodeCrypto().randomBytes(3).toString('hex')}`;
}

export function keyBaseForRun(runId: string): string {
  return `fleetctl-run-${runId}`;
}

export const RUN_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;
