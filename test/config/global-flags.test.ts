// The global flags, read once for the factory and for the verbs that make requests of their own.
import { describe, expect, it } from 'vitest';
import { debugWanted, outputFormat, retryPolicy, timeoutMs } from '../../src/config/global-flags.js';
import { DEFAULT_RETRY_POLICY } from '../../src/shared/retry.js';

describe('the global flags', () => {
  it('--timeout and --max-retry-wait are seconds, the defaults 30 and the retry policy\'s', () => {
    expect(timeoutMs({})).toBe(30_000);
    expect(timeoutMs({ timeout: '2.5' })).toBe(2500);
    expect(retryPolicy({})).toEqual(DEFAULT_RETRY_POLICY);
    expect(retryPolicy({ maxRetries: '0', maxRetryWait: '5' })).toEqual({ ...DEFAULT_RETRY_POLICY, maxRetries: 0, maxRetryWaitMs: 5000 });
  });

  it.each([
    [() => timeoutMs({ timeout: '0' }), '--timeout must be a positive number of seconds, got "0"'],
    [() => timeoutMs({ timeout: ' ' }), '--timeout must be a positive number of seconds, got " "'],
    [() => retryPolicy({ maxRetryWait: 'soon' }), '--max-retry-wait must be a positive number of seconds, got "soon"'],
    [() => retryPolicy({ maxRetries: '1.5' }), '--max-retries must be a whole number, got "1.5"'],
    [() => outputFormat({ output: 'xml' }), 'invalid output format "xml"'],
    [() => outputFormat({ slurp: true }), '--slurp only applies with --jq'],
    [() => outputFormat({ jq: '.id', output: 'wide' }), '--jq prints JSON values and raw strings, not wide'],
  ])('refuses a bad value with a message naming the flag (%#)', (read, message) => {
    expect(read).toThrow(message);
  });

  it('-o picks the format, --json is short for -o json, and the table is the default', () => {
    expect(outputFormat({})).toBe('table');
    expect(outputFormat({ output: 'ndjson', jq: '.id' })).toBe('ndjson');
    expect(outputFormat({ json: true, output: 'csv' })).toBe('json');
  });

  it('--debug, or FLEETCTL_DEBUG set to 1 or true, asks for traces', () => {
    expect(debugWanted({ debug: true }, {})).toBe(true);
    expect(debugWanted({}, { FLEETCTL_DEBUG: 'true' })).toBe(true);
    expect(debugWanted({}, { FLEETCTL_DEBUG: '1' })).toBe(true);
    expect(debugWanted({}, { FLEETCTL_DEBUG: 'no' })).toBe(false);
  });
});
