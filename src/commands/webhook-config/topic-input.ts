// Client-side checks of topic types and callback URLs: the same code the sandbox runs at write time
// (src/webhooks/callback-url.ts), so a request the server would refuse is never sent.
import { UsageError } from '../../errors.js';
import { checkCallbackUrl, isTopicType, MAX_CALLBACK_URL_LENGTH, MAX_TOPICS, TOPIC_TYPES, type TopicType } from '../../webhooks/index.js';
import { quoteInput } from '../../shared/terminal-text.js';
import { didYouMeanSuffix } from '../../shared/did-you-mean.js';

export function requireTopicType(value: string, what = 'topic type'): TopicType {
  if (isTopicType(value)) return value;
  throw new UsageError(`unknown ${what} ${quoteInput(value)}${didYouMeanSuffix(value, TOPIC_TYPES)}`, `topic types are: ${TOPIC_TYPES.join(', ')}`);
}

/** `--topics events,alarms` (also repeated): known types, each once, at least one, at most MAX_TOPICS. */
export function topicTypeList(values: string[] | undefined, flag: string): TopicType[] {
  const names = (values ?? []).flatMap((value) => value.split(',')).map((name) => name.trim()).filter((name) => name !== '');
  if (names.length === 0) throw new UsageError(`${flag} needs at least one topic type`, `topic types are: ${TOPIC_TYPES.join(', ')}`);
  const types = [...new Set(names.map((name) => requireTopicType(name, `${flag} topic type`)))];
  if (types.length > MAX_TOPICS) throw new UsageError(`${flag} lists ${types.length} topics; a configuration holds at most ${MAX_TOPICS}`);
  return types;
}

/**
 * spec: absolute HTTPS, at most 2048 characters, no literal host in a blocked range. allowPrivate mirrors a
 * sandbox started with --allow-private-webhooks (local development; the real service refuses such URLs).
 */
export function requireCallbackUrl(url: string, what: string, allowPrivate = false): string {
  const problem = checkCallbackUrl(url, { allowPrivate });
  if (!problem) return url;
  const local = !allowPrivate && checkCallbackUrl(url, { allowPrivate: true }) === null;
  const hint = local
    ? 'the service accepts only public https destinations; for a local sandbox started with --allow-private-webhooks, pass --allow-private-url'
    : problem.code === 'webhook.ssrf_blocked'
      ? 'webhook destinations must be public: loopback, link-local, private, unique-local and IPv4-mapped addresses are refused'
      : `use an absolute https:// URL of at most ${MAX_CALLBACK_URL_LENGTH} characters, e.g. https://hooks.example.com/fleet`;
  throw new UsageError(`${what} is refused (${problem.code}): ${problem.detail}`, hint);
}

export const ALLOW_PRIVATE_URL_HELP =
  'LOCAL DEVELOPMENT ONLY: accept loopback and private destinations, and http:// to loopback, as a sandbox started with --allow-private-webhooks does';

/** The --url help of the verbs that take one. */
export const CALLBACK_URL_HELP = `absolute https URL of a public host, at most ${MAX_CALLBACK_URL_LENGTH} characters`;
