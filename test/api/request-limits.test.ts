// What can never travel in a request is refused before it is sent, naming the part that does not fit.
import { describe, expect, it } from 'vitest';
import { checkHeaderValue, checkRequestFits, MAX_EXTRA_HEADERS_LENGTH, MAX_TARGET_LENGTH } from '../../src/api/request-limits.js';

const fits = (parts: Partial<Parameters<typeof checkRequestFits>[0]>) => () => checkRequestFits({ path: '/v1/devices', query: [], headers: {}, ...parts });

describe('checkRequestFits', () => {
  it('lets a request of ordinary size through', () => {
    expect(fits({ query: [['cursor', 'c'.repeat(500)], ['fleet_ids', 'f']], headers: { 'Idempotency-Key': 'k' } })).not.toThrow();
  });

  it('names the query parameter that makes the URL too long, quoting its start', () => {
    expect(fits({ query: [['limit', '5'], ['cursor', 'x'.repeat(MAX_TARGET_LENGTH)]] })).toThrow(
      /^the cursor parameter is too long to send: "x{39}… \(8000 characters\)" does not fit in the request URL \(at most 8000 characters\)$/,
    );
    // encoded length counts: 3,000 characters of 日本 are 18,000 in the URL
    expect(fits({ query: [['hardware_id', '日'.repeat(3000)]] })).toThrow(/^the hardware_id parameter is too long to send/);
    expect(fits({ path: `/v1/devices/${'a'.repeat(MAX_TARGET_LENGTH)}` })).toThrow(/^the path is too long to send/);
  });

  it('names the header that is too long, without quoting its value (it may be a secret)', () => {
    const error = (() => {
      try {
        fits({ headers: { 'X-Api-Key': 's'.repeat(MAX_EXTRA_HEADERS_LENGTH) } })();
      } catch (e) {
        return (e as Error).message;
      }
      return '';
    })();
    expect(error).toBe(`the X-Api-Key header is too long to send: a value of ${MAX_EXTRA_HEADERS_LENGTH} characters does not fit in the request headers (at most ${MAX_EXTRA_HEADERS_LENGTH} characters)`);
  });

  it('refuses a header value an HTTP client cannot send, showing the character and not the value', () => {
    expect(fits({ headers: { 'X-Key': 'secret\u0000tail' } })).toThrow('the X-Key header holds "\\x00" at position 7, which an HTTP header cannot carry');
    expect(fits({ headers: { 'X-Key': 'a\r\nInjected: yes' } })).toThrow('holds "\\x0d" at position 2');
    expect(() => checkHeaderValue('日本', '--key')).toThrow('--key holds "日" at position 1');
    expect(checkHeaderValue('plain é\tand tab', '--key')).toBe('plain é\tand tab');
  });
});
