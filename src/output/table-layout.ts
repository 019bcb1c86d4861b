// Column widths for a terminal: measured as the terminal draws them (CJK and emoji take two cells), so a table
// fits its width. Loaded only when a table is drawn.
import stringWidth from 'string-width';

/** Frame of a compact table: a bar before each column and one at the end, and a space each side of a cell. */
export function frameWidth(columnCount: number): number {
  return 3 * columnCount + 1;
}

/**
 * How readily a column gives way when a table is too wide: free text is cut first, then short lists
 * (capabilities, event types); values worth nothing once cut (times, numbers, statuses, codes) are never cut but
 * their columns are dropped; identifiers (a user copies them into the next command) are never cut nor dropped.
 */
export const Stiffness = { text: 0, list: 1, rigid: 2, identifier: 3 } as const;
export type StiffnessValue = (typeof Stiffness)[keyof typeof Stiffness];

export interface FittedTable {
  /** The width of each column; cells wider than it are cut. */
  widths: number[];
  /** The columns shown, by index, in their order; the others did not fit. */
  shown: number[];
}

/**
 * Column widths that fit the terminal. Free text, then lists, give way down to their header (at most 16 cells,
 * at least 6); when that is not enough, the rightmost rigid columns are dropped, then the rightmost lists and
 * text. Identifiers are never cut or dropped: a table of identifiers alone may be wider than the terminal.
 */
export function fitTable(headers: string[], rows: string[][], terminalWidth: number, stiffness: StiffnessValue[] = []): FittedTable {
  const natural = headers.map((header, i) => Math.max(stringWidth(header), ...rows.map((row) => stringWidth(row[i]!))));
  const floor = headers.map((header) => Math.max(6, Math.min(16, stringWidth(header))));
  const kind = (i: number) => stiffness[i] ?? Stiffness.text;
  let shown = headers.map((_, i) => i);
  for (;;) {
    const widths = shown.map((i) => natural[i]!);
    const room = terminalWidth - frameWidth(shown.length);
    for (const level of [Stiffness.text, Stiffness.list]) shrink(widths, room, (at) => kind(shown[at]!) <= level, shown.map((i) => floor[i]!));
    const fits = widths.reduce((sum, width) => sum + width, 0) <= room;
    const drop = fits ? -1 : droppable(shown, kind);
    if (drop < 0) return { widths: headers.map((_, i) => (shown.includes(i) ? widths[shown.indexOf(i)]! : 0)), shown };
    shown = shown.filter((i) => i !== drop);
  }
}

/** The column to drop next: the rightmost rigid one, else the rightmost list or text; never an identifier. */
function droppable(shown: number[], kind: (i: number) => StiffnessValue): number {
  if (shown.length <= 1) return -1;
  for (const level of [Stiffness.rigid, Stiffness.list, Stiffness.text]) {
    const found = [...shown].reverse().find((i) => kind(i) === level);
    if (found !== undefined) return found;
  }
  return -1;
}

/** Takes a cell from the widest eligible column above its floor until the widths fit the room. */
function shrink(widths: number[], room: number, eligible: (i: number) => boolean, floor: number[]): void {
  let excess = widths.reduce((sum, width) => sum + width, 0) - room;
  while (excess > 0) {
    let widest = -1;
    widths.forEach((width, i) => {
      if (eligible(i) && width > floor[i]! && (widest < 0 || width > widths[widest]!)) widest = i;
    });
    if (widest < 0) return;
    widths[widest]!--;
    excess--;
  }
}
