// spec: credentials travel only over TLS; plain http is allowed for the local sandbox on loopback.
import { UsageError } from '../errors.js';
import { quoteInput } from '../shared/terminal-text.js';
import { isLoopbackHost } from '../shared/loopback.js';

/** Throws unless the URL may carry `what` (a client secret, a bearer token). */
export function assertSafeForCredentials(url: string, what: string, setting: string, insecure: boolean): void {
  if (!URL.canParse(url)) {
    throw new UsageError(`${setting} ${quoteInput(url)} is not a valid URL`, `set it with --${setting.replace('_', '-')} or \`fleetctl config set ${setting} URL\``);
  }
  const parsed = new URL(url);
  if (parsed.protocol === 'https:') return;
  if (parsed.protocol !== 'http:') {
    throw new UsageError(`${setting} ${quoteInput(url)} must be an http(s) URL`);
  }
  if (isLoopbackHost(parsed.hostname) || insecure) return;
  throw new UsageError(
    `refusing to send ${what} over plain http to ${parsed.host}: anyone on the network could read it`,
    'use an https:// URL, or pass --insecure if you really mean it',
  );
}
