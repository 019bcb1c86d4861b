// Widths as a terminal shows them: CJK and emoji take two columns. Loaded only where text is fitted to a width
// (string-width is not needed to start the CLI).
import stringWidth from 'string-width';

const graphemes = new Intl.Segmenter();

/** Columns the text takes on a terminal (text already terminal-safe: no escape sequences in it). */
export function displayWidth(text: string): number {
  return stringWidth(text);
}

/**
 * The text cut to at most `width` columns, ending with an ellipsis when cut; with `keep: 'end'`, its end is kept
 * and the ellipsis starts it (a file path keeps its file's name). Cuts fall between graphemes, never inside a
 * surrogate pair or an emoji sequence.
 */
export function cutToWidth(text: string, width: number, keep: 'start' | 'end' = 'start'): string {
  if (stringWidth(text) <= width) return text;
  if (width <= 0) return '';
  const segments = [...graphemes.segment(text)].map(({ segment }) => segment);
  if (keep === 'end') segments.reverse();
  const kept: string[] = [];
  let used = 0;
  for (const segment of segments) {
    const w = stringWidth(segment);
    if (used + w > width - 1) break;
    kept.push(segment);
    used += w;
  }
  return keep === 'end' ? `…${kept.reverse().join('')}` : `${kept.join('')}…`;
}

/** The text cut to `width` columns, then padded with spaces to exactly that many. */
export function fitToWidth(text: string, width: number): string {
  const cut = cutToWidth(text, width);
  return cut + ' '.repeat(Math.max(0, width - stringWidth(cut)));
}
