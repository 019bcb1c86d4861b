// `fleetctl help [command...]`: the help of any command, as `COMMAND --help` prints it; `fleetctl help reference`:
// the whole manual, as Markdown or as man pages (src/commands/help/manual/). Replaces commander's implicit help command, which
// reads one word only (`help devices reboot` showed the group's help).
import path from 'node:path';
import { Command } from 'commander';
import type { Deps } from '../../factory.js';
import { UsageError } from '../../errors.js';
import { writeFileAtomically } from '../../io/atomic-file.js';
import { manualOf } from './manual/model.js';
import { referenceMarkdown } from './manual/markdown.js';
import { manFileName, manPage } from './manual/roff.js';
import { quoteInput, safeText } from '../../shared/terminal-text.js';
import { completeValues } from '../../completion/values.js';
import { describeVerb } from '../shared/help.js';
import { newSelectTopicCommand } from './select-topic.js';

export function newHelpCommand(deps: Pick<Deps, 'output'>, root: () => Command): Command {
  const help = new Command('help').description('Show the help of a command, the whole reference (help reference), or the selection language (help select)').argument('[command...]', 'a command group, or a group and its verb');
  describeVerb(help, {
    output: 'text',
    examples: [
      { comment: 'the help of a verb', command: 'fleetctl help devices reboot' },
      { comment: 'every command and flag in one Markdown document', command: 'fleetctl help reference > fleetctl-reference.md' },
    ],
  });
  help.action((words: string[]) => commandAt(root(), words).outputHelp());
  help.addCommand(newReferenceCommand(deps, root));
  help.addCommand(newSelectTopicCommand(deps));
  return help;
}

/** The command the words name from the program down: a usage error naming the first word that is none. */
function commandAt(program: Command, words: string[]): Command {
  let command = program;
  for (const word of words) {
    const sub = command.commands.find((c) => c.name() === word || c.aliases().includes(word));
    if (!sub) throw new UsageError(`${quoteInput(word)} is no command of ${[program.name(), ...words.slice(0, words.indexOf(word))].join(' ')}; see ${program.name()} --help`);
    command = sub;
  }
  return command;
}

function newReferenceCommand(deps: Pick<Deps, 'output'>, root: () => Command): Command {
  const reference = new Command('reference')
    .description('Print the reference of every command and flag in Markdown, or write it as man pages')
    .option('--man-dir <dir>', 'write one man page per command into this folder (fleetctl.1, fleetctl-devices-reboot.1, ...) and print their paths');
  describeVerb(reference, {
    output: 'text',
    examples: [
      { comment: 'the whole reference in Markdown', command: 'fleetctl help reference' },
      { comment: 'install the man pages for your user (man fleetctl-devices-reboot then finds them)', command: 'fleetctl help reference --man-dir ~/.local/share/man/man1' },
    ],
  });
  completeValues(reference, { '--man-dir': 'directory' });
  reference.action(async (opts: { manDir?: string }) => {
    const pages = manualOf(root());
    if (opts.manDir === undefined) return deps.output().text(referenceMarkdown(pages));
    const written: string[] = [];
    for (const page of pages) {
      const file = path.resolve(opts.manDir, manFileName(page));
      try {
        await writeFileAtomically(file, manPage(page, pages), { mode: 0o644, directoryMode: 0o755 });
      } catch (error) {
        const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
        throw new UsageError(`--man-dir: cannot write ${quoteInput(file)} (${reason}); give a folder you may write to`);
      }
      written.push(file);
    }
    // a folder named with control characters is shown escaped, as any text from outside
    deps.output().text(written.map((file) => safeText(file)).join('\n'));
  });
  return reference;
}
