// The desired-state file of `webhook-config diff` and `apply`: its managed members checked as strictly as the
// service would (the document's WebhookDesiredState), the others set aside (unmanaged-members.ts).
import { UsageError } from '../../errors.js';
import { readJsonOrYamlInput } from '../../io/read-input.js';
import type { IOStreams } from '../../io/streams.js';
import { isCallbackUrlShapeIssue, MAX_CALLBACK_URL_LENGTH, MAX_TOPICS, TOPIC_TYPES } from '../../webhooks/index.js';
import type { WebhookTopic } from './config-client.js';
import { requireCallbackUrl } from './topic-input.js';
import { checkShape, describeIssue, fileShapeError, LOCAL_FILES_DOCUMENT } from '../../openapi/schema-check.js';
import { separateMembers, type UnmanagedMember } from './unmanaged-members.js';

export interface DesiredState {
  /** Omitted: leave the delivery switch as it is (a new configuration stays disabled). */
  is_enabled?: boolean;
  topics: WebhookTopic[];
}

export const DESIRED_FORMAT_HELP = `The desired-state file (JSON or YAML; - reads stdin):
  {
    "is_enabled": true,
    "topics": [
      {"type": "events", "is_enabled": true, "delivery": {"url": "https://hooks.example.com/fleet"}},
      {"type": "alarms", "delivery": {"url": "https://hooks.example.com/alarms"}}
    ]
  }
  is_enabled   optional: the delivery switch; omitted, it is left as it is (a new configuration stays disabled)
  topics       1 to ${MAX_TOPICS} topics; type is one of ${TOPIC_TYPES.join(', ')} (a type may repeat with other URLs);
               is_enabled defaults to true; delivery.url is an absolute https URL of a public host,
               at most ${MAX_CALLBACK_URL_LENGTH} characters
Topics are compared as a set: their order does not matter. What \`webhook-config get -o json\` (or -o yaml) prints,
from any service, is a desired-state file too: members of the service's configuration that fleetctl does not manage
(its read-only ones, the etag, others the service has) are left alone, named once on stderr; they are neither
compared nor sent. A member that neither fleetctl manages nor the service's configuration has is refused (exit 2).`;

/**
 * Reads and checks `-f FILE` (or stdin for -); `source` names it in messages. The members fleetctl does not manage
 * are set aside in `unmanaged`: whether they are the service's own or typos is known once its configuration is read.
 */
export async function readDesired(
  file: string,
  io: Pick<IOStreams, 'in'>,
  allowPrivate = false,
  signal?: AbortSignal,
): Promise<{ desired: DesiredState; unmanaged: UnmanagedMember[]; source: string }> {
  const source = file === '-' ? 'stdin' : file;
  const { managed, unmanaged } = separateMembers(await readJsonOrYamlInput(file, io.in, '-f', { signal }));
  return { desired: await parseDesired(managed, source, allowPrivate), unmanaged, source };
}

export async function parseDesired(value: unknown, source: string, allowPrivate = false): Promise<DesiredState> {
  const issue = await checkShape(LOCAL_FILES_DOCUMENT, 'WebhookDesiredState', value);
  const fail = (what: string) => fileShapeError(source, what, 'see `fleetctl webhook-config apply --help` for the file format');
  // the callback URL policy says more than the schema's format and length: it speaks first for a URL
  if (issue && !isCallbackUrlShapeIssue(issue)) throw fail(describeIssue(issue));
  const topics = ((value as { topics?: unknown } | null)?.topics ?? []) as { delivery?: { url?: unknown } }[];
  topics.forEach((topic, i) => {
    const url = topic?.delivery?.url;
    if (typeof url === 'string') wrap(() => requireCallbackUrl(url, `topics[${i}].delivery.url`, allowPrivate), fail);
  });
  if (issue) throw fail(describeIssue(issue));
  const desired = value as { is_enabled?: boolean; topics: (Omit<WebhookTopic, 'is_enabled'> & { is_enabled?: boolean })[] };
  const seen = new Map<string, number>();
  const parsed = desired.topics.map((topic, i): WebhookTopic => {
    const key = `${topic.type} ${topic.delivery.url}`;
    const first = seen.get(key);
    if (first !== undefined) throw fail(`topics[${i}] repeats topics[${first}] (${key})`);
    seen.set(key, i);
    return { type: topic.type, is_enabled: topic.is_enabled !== false, delivery: { url: topic.delivery.url } };
  });
  return desired.is_enabled === undefined ? { topics: parsed } : { is_enabled: desired.is_enabled, topics: parsed };
}

/** The shared URL check, with the file named in its message. */
function wrap<T>(check: () => T, fail: (what: string) => UsageError): T {
  try {
    return check();
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    const failure = fail(error.message);
    failure.hint = error.hint ?? failure.hint;
    throw failure;
  }
}
