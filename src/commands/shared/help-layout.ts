// The text after a verb's options (scope, notes, examples, global options) laid out to the width of the help, as
// commander lays out the options: no line wider than the terminal at any width from 60 columns up.
import { Help, type Option } from 'commander';

/** A shell command broken at spaces outside single quotes, each line but the last ending in ` \` (still runnable). */
export function wrapCommand(command: string, width: number, indent: string): string {
  const words: string[] = [];
  let word = '';
  let quoted = false;
  for (const char of command) {
    if (char === "'") quoted = !quoted;
    if (char === ' ' && !quoted) {
      if (word) words.push(word);
      word = '';
    } else word += char;
  }
  if (word) words.push(word);
  const lines: string[] = [];
  let line = '';
  for (const [i, word] of words.entries()) {
    const [next, ...inside] = splitQuoted(word, width - indent.length - 4, words[i - 1]);
    // room for the indent and the ` \` that continues the line
    if (line && indent.length + line.length + 1 + next!.length + 2 > width) {
      lines.push(`${line} \\`);
      line = `  ${next}`;
    } else line = line ? `${line} ${next}` : next!;
    // within the quotes: a plain line break, no backslash (it would be part of the document)
    for (const piece of inside) {
      lines.push(line);
      line = `    ${piece}`;
    }
  }
  lines.push(line);
  return lines.map((l) => `${indent}${l}`).join('\n');
}

/**
 * A single-quoted JSON document or jq program (after --jq) too long for a line, broken between its tokens (JSON:
 * after a comma, a colon or an opening bracket; jq: at a space), never inside a string: the line break is inside
 * the quotes, where the shell keeps it and JSON and jq read it as white space. Pieces after the first start with
 * a newline.
 */
function splitQuoted(word: string, room: number, flag: string | undefined): string[] {
  if (word.length <= room) return [word];
  const breaks = /^'[[{]/.test(word) ? ',:{[' : flag === '--jq' && word.startsWith("'") ? ' ' : '';
  if (!breaks) return [word];
  const pieces: string[] = [];
  let piece = '';
  for (const part of partsAfter(word, breaks)) {
    if (piece && piece.length + part.length > room) {
      pieces.push(piece.trimEnd());
      piece = '';
    }
    piece += part;
  }
  pieces.push(piece);
  return pieces;
}

/** The text cut after each of these characters that is outside a double-quoted string. */
function partsAfter(text: string, breaks: string): string[] {
  const parts: string[] = [];
  let start = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (inString) {
      if (char === '\\') i++;
      else if (char === '"') inString = false;
    } else if (char === '"') inString = true;
    else if (breaks.includes(char)) {
      parts.push(text.slice(start, i + 1));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts.filter(Boolean);
}

export interface AfterText {
  scope?: string;
  notes?: string;
  examples: { comment: string; command: string }[];
  globals: readonly Option[];
}

/** The after-options text at the helper's width: prose wrapped, commands continued, global options by name only. */
export function afterOptions(text: AfterText, helper: Help): string {
  const width = helper.helpWidth ?? 80;
  const wrap = (s: string, indent = '') =>
    helper
      .boxWrap(s, width - indent.length)
      .split('\n')
      .map((l) => `${indent}${l}`)
      .join('\n');
  const parts: string[] = [];
  if (text.scope) parts.push(wrap(text.scope));
  if (text.notes) parts.push(wrap(text.notes.replace(/\n(?!\n)/g, ' ')));
  if (text.globals.length > 0) {
    // once, compactly: what each does is in `fleetctl --help`, the same for every verb
    parts.push(wrap(`Global options: ${text.globals.map((o) => o.long ?? o.flags).join(', ')} (see fleetctl --help)`));
  }
  if (text.examples.length > 0) {
    const shown = text.examples.map((e) => `${wrap(e.comment, '  # ')}\n${wrapCommand(`$ ${e.command}`, width, '  ')}`);
    parts.push(`Examples:\n${shown.join('\n\n')}`);
  }
  return parts.join('\n\n');
}

/** Below this many columns for a description beside its term, the description goes under the term. */
const MIN_DESCRIPTION_WIDTH = 40;

/**
 * commander's layout, fitted to any width: an option whose term leaves too little room (a long subcommand term
 * widens the column) has its description below it, wrapped; any line still too wide (a long usage line) is wrapped
 * at its own indentation.
 */
export const FITTED_HELP = {
  formatItem(this: Help, term: string, termWidth: number, description: string, helper: Help): string {
    const width = helper.helpWidth ?? 80;
    if (!description || width - termWidth - 4 >= MIN_DESCRIPTION_WIDTH) return Help.prototype.formatItem.call(this, term, termWidth, description, helper);
    const below = helper.boxWrap(description, width - 6).split('\n').map((line) => `      ${line}`).join('\n');
    return `  ${term}\n${below}`;
  },
};

/** Every line of a help text at most `width` wide, wrapped at its own indentation. */
export function fitLines(text: string, width: number, helper: Help): string {
  return text
    .split('\n')
    .map((line) => {
      if (helper.displayWidth(line) <= width) return line;
      const indent = /^ */.exec(line)![0];
      return helper.boxWrap(line.slice(indent.length), width - indent.length - 2).split('\n').map((part, i) => `${indent}${i === 0 ? '' : '  '}${part}`).join('\n');
    })
    .join('\n');
}
