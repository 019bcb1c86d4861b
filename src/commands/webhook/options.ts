// Options shared by `webhook listen` and `webhook trigger`. The key (X-Webhook-Key): --key K, or
// --key-env VAR (keeps it out of the process list and shell history), or FLEETCTL_WEBHOOK_KEY.
import type { Command } from 'commander';
import { UsageError } from '../../errors.js';
import { quoteInput } from '../../shared/terminal-text.js';
import { checkHeaderValue } from '../../api/request-limits.js';

export const WEBHOOK_KEY_ENV = 'FLEETCTL_WEBHOOK_KEY';
/** `webhook listen --previous-key`: the key before a rotation, still accepted for 60 s. */
export const PREVIOUS_KEY_ENV = 'FLEETCTL_WEBHOOK_PREVIOUS_KEY';

export interface KeyFlags {
  key?: string;
  keyEnv?: string;
}

export function addKeyOptions(command: Command, purpose: string): Command {
  return command
    .option('--key <key>', `the organization's webhook key ${purpose} (or --key-env, or ${WEBHOOK_KEY_ENV})`)
    .option('--key-env <var>', 'read the key from this environment variable');
}

export function keyFrom(flags: KeyFlags, env: NodeJS.ProcessEnv): string {
  if (flags.key !== undefined && flags.keyEnv !== undefined) throw new UsageError('use either --key or --key-env, not both');
  if (flags.key !== undefined) {
    if (flags.key === '') throw new UsageError('--key must not be empty');
    return checkHeaderValue(flags.key, '--key');
  }
  const name = flags.keyEnv ?? WEBHOOK_KEY_ENV;
  // the name is the user's: `--key-env __proto__` must find no variable, not Object.prototype
  const value = Object.hasOwn(env, name) ? env[name] : undefined;
  if (typeof value === 'string' && value !== '') return checkHeaderValue(value, `the key in ${quoteInput(name)}`);
  if (flags.keyEnv !== undefined) throw new UsageError(`the environment variable ${quoteInput(name)} (--key-env) is not set or empty`);
  throw new UsageError(
    'a webhook key is required',
    `pass --key, --key-env VAR or set ${WEBHOOK_KEY_ENV}; the key is printed once by \`fleetctl webhook-config regenerate-key\``,
  );
}

/** An absolute http:// or https:// URL (--to, --forward-to: the user's own endpoints, loopback included). */
export function httpUrl(value: string, flag: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`${flag} must be an absolute http:// or https:// URL, got ${quoteInput(value)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`${flag} must be an http:// or https:// URL, got ${quoteInput(value)}`);
  return value;
}
