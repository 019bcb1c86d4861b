// The one uuid check, used by the CLI's flags and the sandbox's parameters and records alike.
import { describe, expect, it } from 'vitest';
import { canonicalUuid, isUuid } from '../../src/shared/uuid.js';

describe('uuid', () => {
  it.each(['3f2b8c1e-0000-4000-8000-000000000000', '3F2B8C1E-ABCD-4000-8000-00000000000A'])('accepts %s in any case, keeping it lower case', (text) => {
    expect(isUuid(text)).toBe(true);
    expect(canonicalUuid(text)).toBe(text.toLowerCase());
  });

  it.each(['', '3f2b8c1e00004000800000000000000', '3f2b8c1e-0000-4000-8000-00000000000', '3f2b8c1e-0000-4000-8000-0000000000000', 'g f2b8c1e-0000-4000-8000-000000000000', ' 3f2b8c1e-0000-4000-8000-000000000000', '3f2b8c1e-0000-4000-8000-000000000000\n', '{3f2b8c1e-0000-4000-8000-000000000000}'])(
    'refuses %j',
    (text) => {
      expect(isUuid(text)).toBe(false);
      expect(canonicalUuid(text)).toBeUndefined();
    },
  );
});
