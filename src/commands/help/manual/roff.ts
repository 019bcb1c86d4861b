// The man pages: one roff page (man(7) macros) per command of the manual (src/commands/help/manual/model.ts), named as git's
// are: fleetctl(1), fleetctl-devices(1), fleetctl-devices-reboot(1). Written in plain ASCII: every other character
// as a groff escape, so any man/groff renders them without a preprocessor for the input encoding.
import { Help } from 'commander';
import type { ManualItem, ManualPage } from './model.js';
import { wrapCommand } from '../../shared/help-layout.js';

/** Text in a roff line: backslashes, leading dots and quotes, hyphens and non-ASCII characters escaped. */
export function roffText(text: string): string {
  const escaped = [...text.replace(/\\/g, '\\e').replace(/-/g, '\\-')]
    .map((char) => {
      const point = char.codePointAt(0)!;
      if (point < 0x80) return char;
      return `\\[u${point.toString(16).toUpperCase().padStart(4, '0')}]`;
    })
    .join('');
  // a word with a hyphen (a flag, a page name) is never broken at it: \% before it; and a line starting with . or
  // ' would be read as a request (\% or \& keeps it text)
  return escaped.replace(/(^|[ (])(?=[^ ]*\\-)/gm, '$1\\%').replace(/^([.'])/gm, '\\&$1');
}

/**
 * The width examples are laid out to: a man page is read at any width, and at 60 columns (MANWIDTH=60) the body
 * indent (7) and the example indent (4) leave 49. Commands longer than that continue on the next line after ` \`,
 * as in `--help`, so they still run as printed; nothing is cut mid-word by the terminal.
 */
const EXAMPLE_WIDTH = 48;

/** Lines kept as they are: no filling, no adjusting. */
function verbatim(lines: string[]): string[] {
  return ['.RS 4', '.nf', ...lines.map((line) => (line === '' ? '.sp' : roffText(line))), '.fi', '.RE'];
}

/** Examples, each a `# comment` (wrapped, each line a comment) and its command (continued with ` \`). */
function exampleLines(examples: readonly { comment: string; command: string }[]): string[] {
  const helper = new Help();
  return examples.flatMap((e, i) => [
    ...(i > 0 ? [''] : []),
    ...helper.boxWrap(e.comment, EXAMPLE_WIDTH - 2).split('\n').map((line) => `# ${line}`),
    ...wrapCommand(`$ ${e.command}`, EXAMPLE_WIDTH, '').split('\n'),
  ]);
}

/**
 * The program's after-text (its examples and exit codes, as `--help` lays them out for 80 columns) as the page
 * reads at any width: each heading a subsection, examples as above, and each `CODE  meaning` line with its
 * continuation lines one tagged paragraph, filled to the width.
 */
function epilogueLines(epilogue: string): string[] {
  const out: string[] = [];
  const examples: { comment: string; command: string }[] = [];
  let comment = '';
  let item: { term: string; text: string } | undefined;
  const flush = () => {
    if (examples.length > 0) out.push(...verbatim(exampleLines(examples.splice(0))));
    if (item) out.push('.TP', `.B ${roffText(item.term)}`, roffText(item.text));
    item = undefined;
  };
  for (const line of epilogue.trimEnd().split('\n')) {
    const tagged = /^ {2}(\S+) {2,}(.*)$/.exec(line);
    if (/^\S.*:$/.test(line)) {
      flush();
      out.push(`.SS ${roffText(line.slice(0, -1))}`);
    } else if (/^ +# /.test(line)) comment = line.trim().slice(2);
    else if (/^ +\$ /.test(line)) examples.push({ comment, command: line.trim().slice(2) });
    else if (tagged) {
      flush();
      item = { term: tagged[1]!, text: tagged[2]! };
    } else if (item && line.trim() !== '') item.text += ` ${line.trim()}`;
    else if (line.trim() !== '') {
      flush();
      out.push('.PP', roffText(line.trim()));
    }
  }
  flush();
  return out;
}

function items(title: string, list: ManualItem[]): string[] {
  if (list.length === 0) return [];
  return [`.SH ${title}`, ...list.flatMap((item) => ['.TP', `.B ${roffText(item.term)}`, roffText(item.description || ' ')])];
}

/** `fleetctl-devices-reboot.1` */
export function manFileName(page: ManualPage): string {
  return `${page.name}.1`;
}

/** The page of one command; `pages` (the whole manual) for its SEE ALSO. */
export function manPage(page: ManualPage, pages: ManualPage[]): string {
  const lines = [
    `.\\" Generated from the command tree by \`npm run manual\` (src/commands/help/manual/roff.ts). Do not edit.`,
    `.TH "${page.name.toUpperCase()}" "1" "" "${page.path.length === 0 ? page.title : pages[0]!.title}" "fleetctl manual"`,
    // no hyphenation of scopes and flags, no stretched spaces: left-adjusted text
    '.nh',
    '.ad l',
    '.SH NAME',
    `${roffText(page.name)} \\- ${roffText(page.summary)}`,
    '.SH SYNOPSIS',
    // filled, so a long usage wraps between its words at any width
    roffText(page.usage),
    '.SH DESCRIPTION',
    roffText(page.summary),
  ];
  if (page.scopes.length > 0) lines.push('.PP', `Scope: ${roffText(page.scopes.join(', '))}`);
  if (page.notes) for (const paragraph of page.notes.split(/\n\s*\n/)) lines.push('.PP', roffText(paragraph.replace(/\n/g, ' ')));
  lines.push(...items('ARGUMENTS', page.arguments));
  lines.push(...items(page.path.length === 0 ? 'GLOBAL OPTIONS' : 'OPTIONS', page.options));
  if (page.globals.length > 0) lines.push('.SH GLOBAL OPTIONS', `Honoured: ${roffText(page.globals.join(', '))}; see`, `.BR ${pages[0]!.name} (1).`);
  if (page.subcommands.length > 0) {
    lines.push('.SH COMMANDS', ...page.subcommands.flatMap((item) => ['.TP', `.B ${roffText(item.term)}`, roffText(item.description || ' ')]));
  }
  if (page.examples.length > 0) {
    lines.push('.SH EXAMPLES', ...verbatim(exampleLines(page.examples)));
  }
  if (page.epilogue) lines.push('.SH NOTES', ...epilogueLines(page.epilogue));
  const related = pages.filter((other) => other !== page && (isParentOf(other, page) || isParentOf(page, other)));
  if (related.length > 0) lines.push('.SH SEE ALSO', related.map((other) => `.BR ${roffText(other.name)} (1)`).join(',\n'));
  return `${lines.join('\n')}\n`;
}

function isParentOf(parent: ManualPage, child: ManualPage): boolean {
  return parent.path.length === child.path.length - 1 && parent.path.every((word, i) => child.path[i] === word);
}
