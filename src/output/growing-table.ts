// A table on a terminal that grows as rows arrive (--follow): the header and the column widths are set by the
// first rows, every later row is cut to them, so the columns stay lined up however long it runs.
import { fitTable, Part, Stiffness, type PartValue, type StiffnessValue } from './table-layout.js';
import { cutToWidth, displayWidth } from './text-width.js';

const GAP = '  ';

export class GrowingTable {
  private widths: number[] | undefined;

  constructor(
    private readonly headers: string[],
    /** How each column gives way (output/cells.ts tableHeads, the view's parts), and which keep their end when cut. */
    private readonly columns: { stiffness: StiffnessValue[]; parts: PartValue[]; endKept?: boolean[] },
    private readonly terminalWidth: number,
    private readonly bold: (text: string) => string,
  ) {}

  /** The columns shown, by index, once the first rows have set the widths; the others did not fit. */
  shown: number[] = [];

  /** The text to print for these rows: the header first, the first time there are rows. */
  rows(cells: string[][]): string {
    if (cells.length === 0) return '';
    let text = '';
    if (!this.widths) {
      // the frame of a boxed table is wider than the gaps: fitTable leaves that room unused
      const room = this.terminalWidth + (3 * this.headers.length + 1) - GAP.length * (this.headers.length - 1);
      const fitted = fitTable(this.headers, cells, room, this.columns.stiffness, this.columns.parts);
      this.shown = fitted.shown;
      this.widths = fitted.shown.map((i) => fitted.widths[i]!);
      const headers = this.shown.map((i) => this.headers[i]!);
      text += `${this.line(headers.map((header, i) => this.bold(this.cell(header, i))), headers)}\n`;
    }
    for (const row of cells) {
      const shown = this.shown.map((i) => row[i]!);
      text += `${this.line(shown.map((cell, i) => this.cell(cell, i)), shown)}\n`;
    }
    return text;
  }

  /** A cell cut to its column; an identifier longer than the first rows' is shown whole, out of line. */
  private cell(text: string, column: number): string {
    const at = this.shown[column]!;
    const { stiffness, parts, endKept } = this.columns;
    return stiffness[at] === Stiffness.identifier || parts[at] === Part.identifier ? text : cutToWidth(text, this.widths![column]!, endKept?.[at] ? 'end' : 'start');
  }

  /** Cells padded to their column; the last one is not, so no line ends in spaces. */
  private line(painted: string[], plain: string[]): string {
    return painted
      .map((cell, i) => (i === painted.length - 1 ? cell : cell + ' '.repeat(Math.max(0, this.widths![i]! - displayWidth(this.cell(plain[i]!, i))))))
      .join(GAP);
  }
}
