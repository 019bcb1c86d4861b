// The man pages: one roff page (man(7) macros) per command of the manual (src/commands/help/manual/model.ts), named as git's
// are: fleetctl(1), fleetctl-devices(1), fleetctl-devices-reboot(1). Written in plain ASCII: every other character
// as a groff escape, so any man/groff renders them without a preprocessor for the input encoding.
import type { ManualItem, ManualPage } from './model.js';

/** Text in a roff line: backslashes, leading dots and quotes, hyphens and non-ASCII characters escaped. */
export function roffText(text: string): string {
  const escaped = [...text.replace(/\\/g, '\\e').replace(/-/g, '\\-')]
    .map((char) => {
      const point = char.codePointAt(0)!;
      if (point < 0x80) return char;
      return `\\[u${point.toString(16).toUpperCase().padStart(4, '0')}]`;
    })
    .join('');
  // a line starting with . or ' would be read as a request
  return escaped.replace(/^([.'])/gm, '\\&$1');
}

/** Lines kept as they are (usage, examples, the exit-code table): no filling, no adjusting. */
function verbatim(text: string): string[] {
  return ['.RS 4', '.nf', ...text.split('\n').map((line) => (line === '' ? '.sp' : roffText(line))), '.fi', '.RE'];
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
    ...verbatim(page.usage),
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
    lines.push('.SH EXAMPLES', ...verbatim(page.examples.map((e) => `# ${e.comment}\n$ ${e.command}`).join('\n\n')));
  }
  if (page.epilogue) lines.push('.SH NOTES', ...verbatim(page.epilogue.trimEnd()));
  const related = pages.filter((other) => other !== page && (isParentOf(other, page) || isParentOf(page, other)));
  if (related.length > 0) lines.push('.SH SEE ALSO', related.map((other) => `.BR ${other.name} (1)`).join(',\n'));
  return `${lines.join('\n')}\n`;
}

function isParentOf(parent: ManualPage, child: ManualPage): boolean {
  return parent.path.length === child.path.length - 1 && parent.path.every((word, i) => child.path[i] === word);
}
