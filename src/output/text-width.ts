// Widths as a terminal shows them: CJK and emoji take two columns. Loaded only where text is fitted to a width
// (string-width is not needed to start the CLI).
import stringWidth from 'string-width';

const graphemes = new Intl.Segmenter();

/** Columns the text takes on a terminal (text already terminal-safe: no escape sequences in it). */
export function displayWidth(text: string): number {
  return stringWidth(text);
}

/**
 * The text cut to at most `width` columns, ending with an ellipsis when cut. Cuts fall between graphemes,
 * never inside a surrogate pair or an emoji sequence.
 */
export function cutToWidth(text: string, width: number): string {
  if (stringWidth(text) <= width) return text;
  if (width <= 0) return '';
  let kept = '';
  let used = 0;
  for (const { segment } of graphemes.segment(text)) {
    const w = stringWidth(segment);
    if (used + w > width - 1) break;
    kept += segment;
    used += w;
  }
  return `${kept}…`;
}

/** The text cut to `width` columns, then padded with spaces to exactly that many. */
export function fitToWidth(text: string, width: number): string {
  const cut = cutToWidth(text, width);
  return cut + ' '.repeat(Math.max(0, width - stringWidth(cut)));
}
