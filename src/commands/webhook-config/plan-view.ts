// Changes as a person reads them (+ add, - remove, ~ change), shared by `diff` and `apply`'s progress lines.
import { difference, type Change } from './plan.js';
import { topicLabel } from './view.js';
import type { Theme } from '../../io/theme.js';
import { safeText } from '../../shared/terminal-text.js';

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

export function renderChangeLines(changes: Change[], paint: (sign: ChangeLine['sign'], text: string) => string): string {
  return changes
    .flatMap(changeLines)
    .map((line) => paint(line.sign, `${line.sign} ${line.text}`))
    .join('\n');
}

/** The palette's colours for the signs; the text (URLs from a file or the service) made terminal-safe first. */
export function signPainter(theme: Theme): (sign: ChangeLine['sign'], text: string) => string {
  const paint = { '+': theme.added, '-': theme.removed, '~': theme.changed } as const;
  return (sign, text) => paint[sign](safeText(text));
}
