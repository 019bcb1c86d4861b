// The members of a desired-state file that fleetctl does not manage. The spec shows only is_enabled,
// topics[].type, topics[].is_enabled and topics[].delivery.url ("Further webhook configuration fields: not
// shown"), so what `webhook-config get` printed from a real service may carry members of its own (transport,
// created_by, topics[].filter ...). Those are left alone when the service's current configuration has them; a
// member that neither fleetctl manages nor the service has is a typo, refused with the nearest names.
import { UsageError } from '../../errors.js';
import type { IOStreams } from '../../io/streams.js';
import { READ_ONLY_FIELDS } from '../../openapi/fields.gen.js';
import { didYouMeanSuffix } from '../../shared/did-you-mean.js';
import { cutText } from '../../shared/terminal-text.js';
import type { WebhookConfig } from './config-client.js';
import { ETAG_MEMBER } from './view.js';

/** Where in the file a member sits: the configuration itself, one of its topics, or a topic's delivery. */
export type MemberLevel = 'config' | 'topic' | 'delivery';

export interface UnmanagedMember {
  level: MemberLevel;
  name: string;
  /** Where it was found, for the error: `topics[2].delivery.headers`. */
  path: string;
}

/** The members fleetctl compares and writes, by level (spec "Webhook configuration"). */
const MANAGED: Readonly<Record<MemberLevel, readonly string[]>> = {
  config: ['is_enabled', 'topics'],
  topic: ['type', 'is_enabled', 'delivery'],
  delivery: ['url'],
};

/**
 * What `get` adds to any configuration it prints from fleetctl's own sandbox (the document's read-only members)
 * and to every one (the ETag header): accepted even where the target has no configuration yet, so a printed
 * configuration can be copied to another organization.
 */
const PRINTED_BY_GET: readonly string[] = [...READ_ONLY_FIELDS.WebhookConfig, ETAG_MEMBER];

/** How a member is named once for every topic that carries it: `topics[].filter`. */
export function memberLabel(member: Pick<UnmanagedMember, 'level' | 'name'>): string {
  return { config: '', topic: 'topics[].', delivery: 'topics[].delivery.' }[member.level] + member.name;
}

/** The file's value with only the managed members, and the others as found (checked once the service answered). */
export function separateMembers(value: unknown): { managed: unknown; unmanaged: UnmanagedMember[] } {
  const unmanaged: UnmanagedMember[] = [];
  const keep = (object: unknown, level: MemberLevel, at: string): unknown => {
    if (!isObject(object)) return object;
    const kept: Record<string, unknown> = {};
    for (const [name, member] of Object.entries(object)) {
      if (MANAGED[level].includes(name)) kept[name] = member;
      else unmanaged.push({ level, name, path: at ? `${at}.${name}` : name });
    }
    return kept;
  };
  const config = keep(value, 'config', '');
  if (isObject(config) && Array.isArray(config.topics)) {
    config.topics = config.topics.map((topic, i) => {
      const kept = keep(topic, 'topic', `topics[${i}]`);
      if (isObject(kept) && 'delivery' in kept) kept.delivery = keep(kept.delivery, 'delivery', `topics[${i}].delivery`);
      return kept;
    });
  }
  return { managed: config, unmanaged };
}

/**
 * Refuses a member that neither fleetctl manages nor the service's configuration (`current`, undefined when there
 * is none) has; otherwise names the ones left alone in one line on stderr.
 */
export function settleUnmanaged(
  unmanaged: readonly UnmanagedMember[],
  current: WebhookConfig | undefined,
  source: string,
  io: Pick<IOStreams, 'info'>,
): void {
  if (unmanaged.length === 0) return;
  const serviceHas = membersOf(current);
  for (const member of unmanaged) {
    const known = serviceHas[member.level];
    if (known.has(member.name) || (member.level === 'config' && PRINTED_BY_GET.includes(member.name))) continue;
    throw unknownMember(member, known, source);
  }
  const labels = [...new Set(unmanaged.map(memberLabel))];
  io.info(`Note: ${source}: left alone: ${labels.join(', ')} (members of the service's configuration that fleetctl does not manage).`);
}

function unknownMember(member: UnmanagedMember, serviceHas: ReadonlySet<string>, source: string): UsageError {
  const candidates = [...new Set([...MANAGED[member.level], ...serviceHas, ...(member.level === 'config' ? PRINTED_BY_GET : [])])];
  const guess = didYouMeanSuffix(member.name, candidates);
  const where = member.level === 'config' ? 'the configuration' : member.level === 'topic' ? 'a topic' : "a topic's delivery";
  return new UsageError(
    `${source}: ${cutText(member.path, 120)}: is not a known member${guess}`,
    `members of ${where} are those fleetctl manages (${MANAGED[member.level].join(', ')}) and those the service's configuration has` +
      (serviceHas.size > 0 ? ` (${[...serviceHas].join(', ')})` : ' (none)'),
  );
}

/** The member names of the service's configuration at each level, over all of its topics. */
function membersOf(current: WebhookConfig | undefined): Record<MemberLevel, Set<string>> {
  const has: Record<MemberLevel, Set<string>> = { config: new Set(), topic: new Set(), delivery: new Set() };
  if (!current) return has;
  const unmanagedOf = (object: unknown, level: MemberLevel) => {
    if (isObject(object)) for (const name of Object.keys(object)) if (!MANAGED[level].includes(name)) has[level].add(name);
  };
  unmanagedOf(current, 'config');
  for (const topic of Array.isArray(current.topics) ? current.topics : []) {
    unmanagedOf(topic, 'topic');
    unmanagedOf((topic as { delivery?: unknown } | null)?.delivery, 'delivery');
  }
  return has;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
