// The desired-state file of `webhook-config diff` and `apply`, checked as strictly as the service would.
import { UsageError } from '../../errors.js';
import { readJsonOrYamlInput } from '../../io/read-input.js';
import type { IOStreams } from '../../io/streams.js';
import { READ_ONLY_FIELDS } from '../../openapi/fields.gen.js';
import { isCallbackUrlShapeIssue, MAX_CALLBACK_URL_LENGTH, MAX_TOPICS, TOPIC_TYPES } from '../../webhooks/index.js';
import type { WebhookTopic } from './config-client.js';
import { requireCallbackUrl } from './topic-input.js';
import { checkShape, describeIssue, fileShapeError, LOCAL_FILES_DOCUMENT } from '../../openapi/schema-check.js';
import { ETAG_MEMBER } from './view.js';

export interface DesiredState {
  /** Omitted: leave the delivery switch as it is (a new configuration stays disabled). */
  is_enabled?: boolean;
  topics: WebhookTopic[];
}

/** What `webhook-config get -o json|yaml` prints beside the desired state: the document's readOnly members, the ETag. */
const PRINTED_ONLY: readonly string[] = [...READ_ONLY_FIELDS.WebhookConfig, ETAG_MEMBER];

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
Topics are compared as a set: their order does not matter. What \`webhook-config get -o json\` (or -o yaml) prints
is a desired-state file too: its read-only members (${PRINTED_ONLY.join(', ')}) are ignored, with a note.`;

/** Reads and checks `-f FILE` (or stdin for -); `source` names it in messages. */
export async function readDesired(
  file: string,
  io: Pick<IOStreams, 'in' | 'info'>,
  allowPrivate = false,
  signal?: AbortSignal,
): Promise<{ desired: DesiredState; source: string }> {
  const source = file === '-' ? 'stdin' : file;
  const value = await readJsonOrYamlInput(file, io.in, '-f', { signal });
  const ignored = isObject(value) ? PRINTED_ONLY.filter((member) => member in value) : [];
  if (ignored.length > 0) io.info(`Note: ignoring the read-only member(s) ${ignored.join(', ')} of ${source} (the service sets them).`);
  const desired = isObject(value) ? Object.fromEntries(Object.entries(value).filter(([member]) => !ignored.includes(member))) : value;
  return { desired: await parseDesired(desired, source, allowPrivate), source };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
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
