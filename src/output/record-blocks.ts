// Records as blocks of FIELD VALUE lines, for a terminal: -o wide when the records' fields are wider than the
// terminal (as psql's expanded display), and one record whose identifiers would not fit a framed table. Values are
// on one line; free text is cut to the terminal, identifiers never are. Loaded only when blocks are drawn.
import { cutToWidth, displayWidth } from './text-width.js';

export interface BlockLine {
  field: string;
  value: string;
  /** Shown whole even when wider than the terminal: an identifier is copied into the next command. */
  whole: boolean;
}

export interface BlockStyle {
  dim(text: string): string;
  bold(text: string): string;
}

/** One block: a rule naming the record (when there are several), then a line per field. */
export function recordBlock(lines: readonly BlockLine[], width: number, style: BlockStyle, title?: string): string {
  const fieldWidth = Math.min(Math.max(0, ...lines.map((line) => displayWidth(line.field))), Math.floor(width / 3));
  const valueWidth = Math.max(1, width - fieldWidth - 2);
  let text = title === undefined ? '' : `${style.bold(`-[ ${title} ]`)}${'-'.repeat(Math.max(0, Math.min(width, 40) - displayWidth(title) - 5))}\n`;
  for (const line of lines) {
    const field = cutToWidth(line.field, fieldWidth);
    // an identifier too long for the room beside its field name starts a line of its own, so it wraps only on
    // a terminal narrower than itself
    if (line.whole && displayWidth(line.value) > valueWidth) {
      text += `${style.dim(field)}\n${line.value}\n`;
      continue;
    }
    const value = line.whole ? line.value : cutToWidth(line.value, valueWidth);
    text += `${style.dim(field)}${' '.repeat(fieldWidth - displayWidth(field) + 2)}${value}`.trimEnd() + '\n';
  }
  return text;
}
