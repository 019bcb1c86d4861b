import { UsageError } from '../../errors.js';
import { PROFILE_KEYS, type ProfileKey } from '../../config/store.js';
import { quoteInput } from '../../shared/terminal-text.js';
import { didYouMeanSuffix } from '../../shared/did-you-mean.js';

export function requireProfileKey(key: string): ProfileKey {
  if ((PROFILE_KEYS as readonly string[]).includes(key)) return key as ProfileKey;
  // settings are written with underscores: base-url, as the flag is spelt, is the common slip
  throw new UsageError(`unknown setting ${quoteInput(key)}${didYouMeanSuffix(key, PROFILE_KEYS)}`, `settings are: ${PROFILE_KEYS.join(', ')}`);
}

/** The secret is never printed: only whether it is set. */
export function displayValue(key: ProfileKey, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  return key === 'client_secret' ? '(set, hidden)' : value;
}
