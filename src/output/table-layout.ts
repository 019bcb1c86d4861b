// Column widths for a terminal: measured as the terminal draws them (CJK and emoji take two cells), so a table
// fits its width. Loaded only when a table is drawn.
import stringWidth from 'string-width';

/** Frame of a compact table: a bar before each column and one at the end, and a space each side of a cell. */
export function frameWidth(columnCount: number): number {
  return 3 * columnCount + 1;
}

/**
 * How readily a column gives way when a table is too wide: free text first, then short lists (capabilities,
 * event types), then columns worth nothing once cut (ids a user copies into the next command, times, numbers).
 */
export const Stiffness = { text: 0, list: 1, rigid: 2 } as const;
export type StiffnessValue = (typeof Stiffness)[keyof typeof Stiffness];

/**
 * Column widths that fit the terminal. The widest columns of the least stiff kind give way first, down to
 * their header (at most 16 cells, at least 6). A table never wraps: as a last resort every column is cut.
 */
export function fitColumns(headers: string[], rows: string[][], terminalWidth: number, stiffness: StiffnessValue[] = []): number[] {
  const widths = headers.map((header, i) => Math.max(stringWidth(header), ...rows.map((row) => stringWidth(row[i]!))));
  const room = terminalWidth - frameWidth(headers.length);
  const floor = headers.map((header) => Math.max(6, Math.min(16, stringWidth(header))));
  for (const level of Object.values(Stiffness)) shrink(widths, room, (i) => (stiffness[i] ?? Stiffness.text) <= level, floor);
  shrink(widths, room, () => true, widths.map(() => 1));
  return widths;
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
