// A tick list that cannot surprise: what the operator types filters the list (as the single pickers do), space
// ticks the one line under the cursor, and no single key ticks or inverts many (the checkbox prompt's `a` and `i`
// did, so typing a name could tick a whole fleet). Ticking every line shown is a labelled line of its own.
import { createPrompt, isBackspaceKey, isDownKey, isEnterKey, isSpaceKey, isUpKey, makeTheme, useKeypress, usePrefix, useState } from '@inquirer/core';

/** A line of the list, as prompter.ts's PromptChoice (declared here too: prompter.ts loads this module). */
interface PromptChoice<T> {
  value: T;
  name: string;
  short?: string;
  disabled?: boolean | string;
  /** A tick list: ticked from the start (a set the operator chose to start from). */
  checked?: boolean;
}

export interface MultiSelectConfig<T> {
  message: string;
  choices: PromptChoice<T>[];
  pageSize?: number;
}

/** The first line of the list: ticks (or unticks) every selectable line the filter shows. */
export const TICK_ALL_LABEL = 'Tick every device shown';

/** The lines the filter keeps: every word typed is in the line, in any case. */
export function matching<T>(choices: PromptChoice<T>[], filter: string): number[] {
  const words = filter.toLowerCase().split(/\s+/).filter(Boolean);
  return choices.flatMap((choice, index) => (words.every((word) => choice.name.toLowerCase().includes(word)) ? [index] : []));
}

/** The row of the first line shown that can be ticked (row 0 is "tick every device shown"). */
function firstSelectableRow<T>(choices: PromptChoice<T>[], shown: number[]): number {
  const first = shown.findIndex((index) => !choices[index]!.disabled);
  return first < 0 ? 0 : first + 1;
}

export const multiSelect = createPrompt(<T>(config: MultiSelectConfig<T>, done: (value: T[]) => void): string | [string, string] => {
  const theme = makeTheme({});
  const [status, setStatus] = useState<'idle' | 'done'>('idle');
  const [filter, setFilter] = useState('');
  // on the first line that can be ticked, never on "tick every device": a stray space ticks one line at most
  const [cursor, setCursor] = useState(firstSelectableRow(config.choices, matching(config.choices, '')));
  const [ticked, setTicked] = useState<ReadonlySet<number>>(new Set(config.choices.flatMap((choice, index) => (choice.checked && !choice.disabled ? [index] : []))));
  const [error, setError] = useState<string | undefined>(undefined);
  const prefix = usePrefix({ status, theme });
  const shown = matching(config.choices, filter);
  const selectable = shown.filter((index) => !config.choices[index]!.disabled);
  // row 0 is the tick-all line, then the lines shown
  const rows = shown.length + 1;

  useKeypress((key, rl) => {
    setError(undefined);
    if (isEnterKey(key)) {
      if (ticked.size === 0) return setError('tick at least one line with space (or Ctrl-C to stop)');
      setStatus('done');
      return done([...ticked].sort((a, b) => a - b).map((index) => config.choices[index]!.value));
    }
    if (isUpKey(key) || isDownKey(key)) {
      // lines that cannot be ticked are passed over
      const step = isUpKey(key) ? -1 : 1;
      let next = cursor + step;
      while (next > 0 && next < rows && config.choices[shown[next - 1]!]!.disabled) next += step;
      if (next >= 0 && next < rows) setCursor(next);
      return;
    }
    if (isSpaceKey(key)) {
      // the space went into the line being typed: it ticks, it does not filter
      rl.clearLine(0);
      rl.write(filter);
      const next = new Set(ticked);
      if (cursor === 0) {
        const all = selectable.length > 0 && selectable.every((index) => next.has(index));
        for (const index of selectable) {
          if (all) next.delete(index);
          else next.add(index);
        }
      } else {
        const index = shown[cursor - 1]!;
        if (config.choices[index]!.disabled) return setError(`cannot be ticked ${String(config.choices[index]!.disabled)}`);
        if (next.has(index)) next.delete(index);
        else next.add(index);
      }
      setTicked(next);
      return;
    }
    if (isBackspaceKey(key) || rl.line !== filter) {
      setFilter(rl.line);
      // the first line that matches is under the cursor, as in the single pickers
      setCursor(firstSelectableRow(config.choices, matching(config.choices, rl.line)));
    }
  });

  const count = `${ticked.size} ticked`;
  if (status === 'done') {
    const names = [...ticked].map((index) => config.choices[index]!.short ?? config.choices[index]!.name);
    return `${prefix} ${theme.style.message(config.message, status)} ${theme.style.answer(names.join(', '))}`;
  }
  const pageSize = config.pageSize ?? 15;
  const start = Math.max(0, Math.min(cursor - Math.floor(pageSize / 2), rows - pageSize));
  const lines: string[] = [];
  for (let row = start; row < Math.min(rows, start + pageSize); row++) {
    const pointer = row === cursor ? '❯' : ' ';
    if (row === 0) {
      lines.push(`${pointer} [ ${TICK_ALL_LABEL} (${selectable.length}) ]`);
      continue;
    }
    const choice = config.choices[shown[row - 1]!]!;
    const mark = choice.disabled ? '-' : ticked.has(shown[row - 1]!) ? '◉' : '◯';
    lines.push(`${pointer}${mark} ${choice.name}${choice.disabled ? ` ${String(choice.disabled)}` : ''}`);
  }
  if (shown.length === 0) lines.push(`  (nothing matches ${JSON.stringify(filter)})`);
  const help = theme.style.help('type to filter · ↑↓ move · space ticks · enter goes on');
  const header = `${prefix} ${theme.style.message(config.message, status)} ${filter}`;
  return [header, `${lines.join('\n')}\n${help} · ${count}${error ? `\n${theme.style.error(error)}` : ''}`];
});
