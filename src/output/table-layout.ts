// Column widths for a terminal: measured as the terminal draws them (CJK and emoji take two cells), so a table
// fits its width. Loaded only when a table is drawn.
import stringWidth from 'string-width';

/** Frame of a compact table: a bar before each column and one at the end, and a space each side of a cell. */
export function frameWidth(columnCount: number): number {
  return 3 * columnCount + 1;
}

/**
 * How readily a column's cells are cut when a table is too wide: free text first, then short lists
 * (capabilities, event types); values worth nothing once cut (times, numbers, statuses, codes, identifiers) are
 * never cut: their columns are left out instead.
 */
export const Stiffness = { text: 0, list: 1, rigid: 2, identifier: 3 } as const;
export type StiffnessValue = (typeof Stiffness)[keyof typeof Stiffness];

/**
 * What a column is to the view that shows it (output/columns.ts): the identifier the next command takes, never cut
 * nor left out; the columns of its task (a bulk run's status and code), left out only when nothing else is left;
 * everything else, left out first.
 */
export const Part = { identifier: 0, task: 1, other: 2 } as const;
export type PartValue = (typeof Part)[keyof typeof Part];

export interface FittedTable {
  /** The width of each column; cells wider than it are cut. */
  widths: number[];
  /** The columns shown, by index, in their order; the others did not fit. */
  shown: number[];
  /** False when the identifier alone is wider than the terminal: the caller shows the records another way. */
  fits: boolean;
}

/**
 * Column widths that fit the terminal. The view's other columns give way first: their free text, then lists, are
 * cut down to their header (at most 16 cells, at least 6), then the rightmost of them are left out; only then do
 * the task's columns give way, the same way. The identifier is never cut nor left out. Columns left out that fit
 * again once others are (a short one after a long one) come back, the view's order kept.
 */
export function fitTable(headers: string[], rows: string[][], terminalWidth: number, stiffness: StiffnessValue[] = [], parts: PartValue[] = []): FittedTable {
  const natural = headers.map((header, i) => Math.max(stringWidth(header), ...rows.map((row) => stringWidth(row[i]!))));
  const floor = headers.map((header) => Math.max(6, Math.min(16, stringWidth(header))));
  const part = (i: number): PartValue => parts[i] ?? (i === 0 ? Part.identifier : Part.other);
  /** The widths of these columns once cut as far as `upTo` allows (other: only the others' cells), and whether they fit. */
  const layout = (shown: number[], upTo: PartValue) => {
    const widths = shown.map((i) => natural[i]!);
    const room = terminalWidth - frameWidth(shown.length);
    for (const level of [Part.other, Part.task]) {
      if (level < upTo) continue;
      for (const kind of [Stiffness.text, Stiffness.list]) {
        shrink(widths, room, (at) => part(shown[at]!) === level && (stiffness[shown[at]!] ?? Stiffness.text) <= kind, shown.map((i) => floor[i]!));
      }
    }
    return { widths, fits: widths.reduce((sum, width) => sum + width, 0) <= room };
  };
  let shown = headers.map((_, i) => i);
  let upTo: PartValue = Part.other;
  for (const level of [Part.other, Part.task]) {
    upTo = level;
    while (!layout(shown, upTo).fits) {
      const drop = [...shown].reverse().find((i) => part(i) === level);
      if (drop === undefined) break;
      shown = shown.filter((i) => i !== drop);
    }
    if (layout(shown, upTo).fits) break;
  }
  // a column left out for a wider one may fit in the room that one left
  const left = headers.map((_, i) => i).filter((i) => !shown.includes(i));
  left.sort((a, b) => part(a) - part(b) || a - b);
  for (const i of left) {
    // an other column comes back only while every task column is in, and leaves their cells whole
    if (part(i) === Part.other && left.some((j) => part(j) === Part.task && !shown.includes(j))) break;
    const tried = [...shown, i].sort((a, b) => a - b);
    if (layout(tried, part(i) === Part.other ? Part.other : upTo).fits) shown = tried;
  }
  const { widths, fits } = layout(shown, upTo);
  return { widths: headers.map((_, i) => (shown.includes(i) ? widths[shown.indexOf(i)]! : 0)), shown, fits };
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
