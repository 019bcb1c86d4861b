// Changes as a person reads them (+ add, - remove, ~ change), shared by `diff` and `apply`'s progress lines.
import { topicKey, type Change } from './plan.js';
import type { WebhookTopic } from './config-client.js';
import { topicLabel } from './view.js';

export interface ChangeLine {
  sign: '+' | '-' | '~';
  text: string;
}

export function changeLines(change: Change): ChangeLine[] {
  switch (change.op) {
    case 'create':
      return [
        { sign: '+', text: `create the configuration, disabled, with ${change.after.topics.length} topic${change.after.topics.length === 1 ? '' : 's'}` },
        ...change.after.topics.map((t): ChangeLine => ({ sign: '+', text: `  topic ${topicLabel(t)}` })),
      ];
    case 'set_enabled':
      return [{ sign: '~', text: `is_enabled: ${change.before} -> ${change.after} (${change.after ? 'delivery on' : 'delivery off'})` }];
    case 'set_topic':
      return change.before.length === 0
        ? [{ sign: '+', text: `topic ${topicLabel(change.after)}` }]
        : [{ sign: '~', text: `topic ${change.before.map(topicLabel).join(', ')} -> ${topicLabel(change.after)}` }];
    case 'remove_topic':
      return change.before.map((t) => ({ sign: '-', text: `topic ${topicLabel(t)}` }));
    case 'replace_topics':
      return [
        { sign: '~', text: 'topics, replaced in one call:' },
        ...difference(change.before, change.after).map((t): ChangeLine => ({ sign: '-', text: `  topic ${topicLabel(t)}` })),
        ...difference(change.after, change.before).map((t): ChangeLine => ({ sign: '+', text: `  topic ${topicLabel(t)}` })),
      ];
  }
}

/** Topics of a that b lacks (as a multiset). */
function difference(a: WebhookTopic[], b: WebhookTopic[]): WebhookTopic[] {
  const left = b.map(topicKey);
  return a.filter((topic) => {
    const at = left.indexOf(topicKey(topic));
    if (at < 0) return true;
    left.splice(at, 1);
    return false;
  });
}

export function renderChangeLines(changes: Change[], paint: (sign: ChangeLine['sign'], text: string) => string): string {
  return changes
    .flatMap(changeLines)
    .map((line) => paint(line.sign, `${line.sign} ${line.text}`))
    .join('\n');
}

/** ANSI colours for the signs, when the stream takes colour. */
export function signPainter(color: boolean): (sign: ChangeLine['sign'], text: string) => string {
  const codes = { '+': 32, '-': 31, '~': 33 } as const;
  return (sign, text) => (color ? `\u001b[${codes[sign]}m${text}\u001b[39m` : text);
}
