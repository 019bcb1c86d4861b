// The global flags, as commander parses them, and what each means once checked: the output format, request
// timeout, retry policy and debug switch. Verbs that make requests of their own (`auth login`, `webhook trigger`)
// read them from here, as the factory does.
import { Command } from 'commander';
import type { LogFormat } from '../io/log-lines.js';
import { formatFromFlags, type OutputFormat } from '../output/writers/registry.js';
import { requireNumber, requireWholeNumber } from '../shared/flag-numbers.js';
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from '../shared/retry.js';

/** Global flags, as commander parses them. */
export interface GlobalOptions {
  profile?: string;
  baseUrl?: string;
  authUrl?: string;
  output?: string;
  json?: boolean;
  columns?: string;
  jq?: string;
  slurp?: boolean;
  color?: boolean;
  input?: boolean;
  debug?: boolean;
  timeout?: string;
  maxRetries?: string;
  maxRetryWait?: string;
  insecure?: boolean;
  caFile?: string;
  sandbox?: boolean;
  logFormat?: LogFormat;
}

const DEFAULT_TIMEOUT_S = 30;

/** --debug or FLEETCTL_DEBUG: HTTP traces, and the stack of an unexpected failure. */
export function debugWanted(g: GlobalOptions, env: NodeJS.ProcessEnv): boolean {
  return Boolean(g.debug) || env.FLEETCTL_DEBUG === '1' || env.FLEETCTL_DEBUG === 'true';
}

// commander reads --debug with the global options, even after an unknown flag; only a failure while the program
// is built comes earlier: then commander reads --debug alone.
export function debugBeforeParse(argv: string[]): boolean {
  const early = new Command().option('--debug').allowUnknownOption().allowExcessArguments();
  early.parseOptions(argv.slice(2));
  return early.opts().debug === true;
}

/** -o (--json its short form), checked against --jq and --slurp, which only make sense with JSON values. */
export function outputFormat(g: GlobalOptions): OutputFormat {
  return formatFromFlags(g);
}

export function timeoutMs(g: GlobalOptions): number {
  return seconds(g.timeout, '--timeout', DEFAULT_TIMEOUT_S) * 1000;
}

export function retryPolicy(g: GlobalOptions): RetryPolicy {
  const maxRetries = g.maxRetries === undefined ? DEFAULT_RETRY_POLICY.maxRetries : requireWholeNumber(g.maxRetries, '--max-retries');
  const maxRetryWaitMs = seconds(g.maxRetryWait, '--max-retry-wait', DEFAULT_RETRY_POLICY.maxRetryWaitMs / 1000) * 1000;
  return { ...DEFAULT_RETRY_POLICY, maxRetries, maxRetryWaitMs };
}

function seconds(value: string | undefined, flag: string, fallback: number): number {
  return value === undefined ? fallback : requireNumber(value, flag, 'a positive number of seconds', (n) => n > 0);
}
