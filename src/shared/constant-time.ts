// Comparing a secret someone presents with the one expected, without the time taken telling how close they were:
// webhook keys, the sandbox's client secrets and control token, cursor and download-link signatures.
import { nodeCrypto } from './node-crypto.js';

/**
 * Whether two texts are equal, in constant time. Both are hashed to SHA-256 digests first: timingSafeEqual needs
 * equal lengths, and comparing digests lets neither the content nor the length of the expected text leak.
 */
export function constantTimeEqual(given: string, expected: string): boolean {
  const { createHash, timingSafeEqual } = nodeCrypto();
  const a = createHash('sha256').update(given, 'utf8').digest();
  const b = createHash('sha256').update(expected, 'utf8').digest();
  return timingSafeEqual(a, b);
}
