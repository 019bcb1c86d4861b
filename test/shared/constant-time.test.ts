// The one constant-time compare, for webhook keys, client secrets, the control token and signatures.
import { describe, expect, it } from 'vitest';
import { constantTimeEqual } from '../../src/shared/constant-time.js';

describe('constantTimeEqual', () => {
  it.each([
    ['abc', 'abc', true],
    ['abc', 'abd', false],
    ['abc', 'abcd', false],
    ['abcd', 'abc', false],
    ['', 'abc', false],
    ['', '', true],
    ['ключ', 'ключ', true],
    ['Abc', 'abc', false],
    // a signature that differs only past a NUL or in its last character
    ['sig\u0000x', 'sig\u0000y', false],
    ['kR3v9QbX2mLwZ1tYpA0cJg', 'kR3v9QbX2mLwZ1tYpA0cJh', false],
  ])('%j vs %j → %s', (given, expected, equal) => {
    expect(constantTimeEqual(given, expected)).toBe(equal);
  });
});
