// What the hidden completion command prints: one candidate a line, `value<TAB>description`. A value goes into
// the operator's command line as it is, so anything that could run, split or redraw there is left out.
import { safeText } from '../shared/terminal-text.js';

export interface Candidate {
  value: string;
  /** Shown beside the value by zsh and fish (a device's or fleet's name). */
  description?: string;
}

// Letters, digits and the punctuation of ids and paths: no whitespace, quotes, globs, `$`, `;`, `|`, controls.
const SAFE_VALUE = /^[\p{L}\p{N}._:@%+=,/-]+$/u;
const MAX_DESCRIPTION = 60;

export function isSafeValue(value: string): boolean {
  return SAFE_VALUE.test(value);
}

/** One line, control characters made visible, cut to a length that fits beside a value. */
export function safeDescription(text: string): string {
  const chars = Array.from(safeText(text.replace(/\s+/g, ' ').trim()));
  return chars.length > MAX_DESCRIPTION ? `${chars.slice(0, MAX_DESCRIPTION - 1).join('')}…` : chars.join('');
}

/** The candidates that start with the prefix, safe ones only, each value once, as lines to print. */
export function candidateLines(candidates: readonly Candidate[], prefix: string): string[] {
  const seen = new Set<string>();
  const lines: string[] = [];
  for (const { value, description } of candidates) {
    if (!value.startsWith(prefix) || !isSafeValue(value) || seen.has(value)) continue;
    seen.add(value);
    const shown = description ? safeDescription(description) : '';
    lines.push(shown ? `${value}\t${shown}` : value);
  }
  return lines;
}
