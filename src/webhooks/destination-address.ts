// Delivery-time destination checks. spec Delivery rule 4: "At delivery time the sender resolves the
// destination and pins an approved public IP. Unsafe DNS answers or rebinding make the delivery fail closed
// and no callback is sent." Each attempt resolves again, so an answer that changes to a blocked range (DNS
// rebinding) is caught on the attempt it happens, and the connection goes to the very address approved.
import { lookup as dnsLookup } from 'node:dns/promises';
import type { LookupAddress } from 'node:dns';
import { checkCallbackUrl, classifyAddress, literalHostAddress } from './callback-url.js';

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}
/** Every address a host name resolves to (tests inject a fake one). */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolver: Resolver = async (hostname) => {
  const answers = await dnsLookup(hostname, { all: true, verbatim: true });
  return answers.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
};

export type DestinationApproval =
  | { ok: true; address: string; family: 4 | 6 }
  /** blocked: refused by policy, final (nothing is sent); otherwise a resolution failure worth retrying. */
  | { ok: false; blocked: boolean; reason: string };

export interface ApproveOptions {
  resolve: Resolver;
  /** Local development: private addresses and http:// to loopback are allowed. */
  allowPrivate: boolean;
}

/** Resolves the URL's host and approves one address to connect to, or says why not. */
export async function approveDestination(url: string, opts: ApproveOptions): Promise<DestinationApproval> {
  const problem = checkCallbackUrl(url, { allowPrivate: opts.allowPrivate });
  if (problem) return { ok: false, blocked: true, reason: `${problem.code}: ${problem.detail}` };
  const hostname = new URL(url).hostname;
  const literal = literalHostAddress(hostname);
  let answers: ResolvedAddress[];
  if (literal) {
    answers = [{ address: literal, family: literal.includes(':') ? 6 : 4 }];
  } else {
    try {
      answers = await opts.resolve(hostname);
    } catch (err) {
      const code = (err as { code?: string }).code ?? (err as Error).message;
      return { ok: false, blocked: false, reason: `DNS lookup of ${hostname} failed (${code})` };
    }
  }
  if (answers.length === 0) return { ok: false, blocked: false, reason: `DNS lookup of ${hostname} returned no address` };
  if (!opts.allowPrivate) {
    // fail closed: one unsafe answer refuses the delivery, even when another answer is public
    for (const answer of answers) {
      const verdict = classifyAddress(answer.address);
      if (verdict.blocked) {
        return {
          ok: false,
          blocked: true,
          reason: `${hostname} resolves to ${answer.address}, in a blocked range (${verdict.range}); nothing was sent`,
        };
      }
    }
  }
  return { ok: true, address: answers[0]!.address, family: answers[0]!.family };
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for net/tls.connect that answers with the approved address only, so the socket cannot reach
 * anything else, while the URL's host name still sets SNI, certificate checks and the Host header.
 * Node 20 asks with `{ all: true }` when it auto-selects the address family.
 */
export function pinnedLookup(address: string, family: 4 | 6) {
  return (_hostname: string, options: { all?: boolean } | number | undefined, callback: LookupCallback): void => {
    if (typeof options === 'object' && options?.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  };
}
