// `fleetctl help reference`: every command of the manual (src/commands/help/manual/model.ts) in one Markdown document, a
// heading per command nested as the tree is, to read in a browser, search, or keep beside a repository's runbooks.
import type { ManualItem, ManualPage } from './model.js';

/** Text from help, safe in Markdown prose: the characters Markdown would take for markup are escaped. */
function prose(text: string): string {
  return text.replace(/([\\`*[\]<>|])/g, '\\$1');
}

/** Inline code that holds any backticks of its text (a longer run of backticks around it). */
function code(text: string): string {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return longest > 0 ? `${fence} ${text} ${fence}` : `${fence}${text}${fence}`;
}

/** A block that holds any backtick fence of its text. */
function block(text: string, language = ''): string {
  const longest = Math.max(2, ...[...text.matchAll(/^`+/gm)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}${language}\n${text}\n${fence}`;
}

function items(heading: string, list: ManualItem[]): string[] {
  if (list.length === 0) return [];
  return [`**${heading}**`, '', ...list.map((item) => `- ${code(item.term)}${item.description ? `: ${prose(item.description)}` : ''}`), ''];
}

/** `#` for the program, `##` for a group, `###` for its verbs, and so on. */
function heading(page: ManualPage): string {
  return `${'#'.repeat(Math.min(6, page.path.length + 1))} ${page.title}`;
}

function section(page: ManualPage): string {
  const lines = [heading(page), '', prose(page.summary), '', block(page.usage, 'text'), ''];
  if (page.scopes.length > 0) lines.push(`Scope: ${page.scopes.map(code).join(', ')}`, '');
  if (page.notes) lines.push(prose(page.notes.replace(/\n(?!\n)/g, ' ')), '');
  lines.push(...items('Arguments', page.arguments));
  lines.push(...items(page.path.length === 0 ? 'Global options' : 'Options', page.options));
  if (page.globals.length > 0) lines.push(`**Global options honoured:** ${page.globals.map(code).join(', ')} (see [fleetctl](#fleetctl))`, '');
  lines.push(...items('Commands', page.subcommands));
  if (page.examples.length > 0) {
    lines.push('**Examples**', '', block(page.examples.map((e) => `# ${e.comment}\n${e.command}`).join('\n\n'), 'sh'), '');
  }
  if (page.epilogue) lines.push(block(page.epilogue.trimEnd(), 'text'), '');
  return lines.join('\n');
}

/** The whole reference, the program's section first, then every command in the order help lists them. */
export function referenceMarkdown(pages: ManualPage[]): string {
  const [program] = pages;
  const verb = pages.find((page) => page.path.length === 2) ?? program!;
  const intro = `The reference of every ${program!.title} command, generated from the command tree (as \`--help\` is). The same pages are installed as man pages: \`man ${program!.name}\`, \`man ${verb.name}\`, ...`;
  return `${[intro, '', ...pages.map(section)].join('\n').trimEnd()}\n`;
}
