// A command's table as a person sees it in a pseudo-terminal: its lines as written (before the terminal wraps
// anything), checked never to be wider than the terminal, and the text as printed (a wrapped row read as one line).
import { stripVTControlCharacters } from 'node:util';
import { expect } from 'vitest';
import stringWidth from 'string-width';
import { startPty, type PtyOptions } from './pty.js';

export interface SeenTable {
  code: number;
  /** Everything on the terminal, stdout and stderr, a line as printed. */
  text: string;
  /** The header row of the (first) table, borders included. */
  header: string;
}

/** Runs the built CLI in a terminal of `cols`; fails when no table is drawn or a table line is wider than the terminal. */
export async function tableInPty(args: string[], cols: number, opts: Omit<PtyOptions, 'cols'> = {}): Promise<SeenTable> {
  const session = startPty(args, { rows: 60, ...opts, cols });
  const { code } = await session.waitForExit();
  // a spinner's line is overwritten in place (a return, cursor moves): the table's lines start at their border
  const written = stripVTControlCharacters(session.raw())
    .split(/\r?\n/)
    .map((line) => line.slice(Math.max(0, line.search(/[┌│└]/))))
    .filter((line) => /^[┌│└]/.test(line));
  expect(written.length, session.raw()).toBeGreaterThan(0);
  expect(written.filter((line) => stringWidth(line) > cols), 'table lines wider than the terminal').toEqual([]);
  const text = session.lines().map((line) => (line.wrapped ? '' : '\n') + line.text).join('');
  return { code, text, header: written[1] ?? '' };
}
