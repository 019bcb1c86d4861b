// Flags every webhook-config verb shares: the organization, and --if-match for strict read-review-write.
import type { Command } from 'commander';
import { UsageError } from '../../errors.js';
import type { Deps } from '../../factory.js';
import { confirmOrRequireYes, requireYesUnlessInteractive } from '../../io/prompter.js';
import { addOrganizationOption, resolveOrganization } from '../shared/organization.js';
import { optionalUuid } from '../shared/validate.js';
import { WebhookConfigClient, type Precondition, type Versioned } from './config-client.js';
import { quoteInput } from '../../shared/terminal-text.js';

export interface OrgFlags {
  org?: string;
  ifMatch?: string;
}

export type WebhookDeps = Pick<Deps, 'api' | 'settings' | 'output' | 'io' | 'prompter' | 'ledger'>;

/** The organization, and the ETag a change must still find (--if-match). */
export interface Target {
  organizationId?: string;
  ifMatch?: string;
}

export function addTargetOptions(command: Command): Command {
  addOrganizationOption(command);
  return command.option('--if-match <etag>', 'act only if the configuration still has this ETag (from `webhook-config get`); default: the current one');
}

export function orgFrom(flags: OrgFlags): string | undefined {
  return optionalUuid(flags.org, '--org');
}

export function targetFrom(flags: OrgFlags): Target {
  return { organizationId: orgFrom(flags), ifMatch: parseIfMatch(flags.ifMatch) };
}

/** ETags are short opaque tags (a hash): one of hundreds of characters is a paste gone wrong. */
const MAX_ETAG_LENGTH = 200;

/** An ETag as `get` shows it ("abc"), or bare (abc, quoted for you), or W/"abc"; "*" matches any configuration. */
export function parseIfMatch(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const etag = value.trim();
  if (etag === '') throw new UsageError('--if-match must not be empty', 'pass the ETag shown by `fleetctl webhook-config get`');
  if (/[\u0000-\u001f\u007f-\u009f,]/.test(etag) || etag.length > MAX_ETAG_LENGTH) throw new UsageError(`--if-match must be one ETag, got ${quoteInput(value)}`);
  if (etag === '*' || /^(W\/)?".*"$/.test(etag)) return etag;
  if (etag.includes('"')) throw new UsageError(`--if-match is not a valid ETag: ${quoteInput(value)}`, 'pass it as `get` shows it, e.g. --if-match \'"abc123"\'');
  return `"${etag}"`;
}

/** The client of the organization's configuration; given the command's name, its changes go to the audit ledger. */
export async function webhookClient(deps: Pick<Deps, 'api' | 'settings' | 'io' | 'prompter' | 'ledger'>, org: string | undefined, command?: string): Promise<WebhookConfigClient> {
  const organizationId = await resolveOrganization(deps, org);
  return new WebhookConfigClient(await deps.api(), organizationId, command === undefined ? undefined : { ledger: deps.ledger(), command });
}

/**
 * The client and If-Match of a change that asks first. A script without --yes fails before any request; the
 * question is put once the current configuration is read (a question of undefined: nothing to ask).
 */
export async function confirmedChange(
  deps: Pick<Deps, 'api' | 'settings' | 'io' | 'prompter' | 'ledger'>,
  opts: Target & { yes: boolean },
  refusal: string,
  question: (org: string, current: Versioned | undefined) => string | undefined,
  command: string,
): Promise<{ client: WebhookConfigClient; pre: Precondition }> {
  requireYesUnlessInteractive(deps.io, { yes: opts.yes, refusal });
  const client = await webhookClient(deps, opts.organizationId, command);
  const { pre, current } = await client.precondition(opts.ifMatch);
  const asked = question(client.organizationId, current);
  if (asked !== undefined) await confirmOrRequireYes(deps, { yes: opts.yes, question: asked, refusal });
  return { client, pre };
}
