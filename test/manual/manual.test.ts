// The manual cannot drift from the command tree: the Markdown reference and the man pages name every command and
// every flag that `--help` shows (the tree walked here on its own, not through src/commands/help/manual/), the committed pages
// in man/ are what the tree generates now, package.json installs each of them, and groff reads them without a
// warning.
import { execFileSync, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Help, type Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { buildProgram, main } from '../../src/main.js';
import { createDeps } from '../../src/factory.js';
import { IOStreams } from '../../src/io/streams.js';
import { manualOf } from '../../src/commands/help/manual/model.js';
import { referenceMarkdown } from '../../src/commands/help/manual/markdown.js';
import { manFileName, manPage, roffText } from '../../src/commands/help/manual/roff.js';
import { suiteTempDir } from '../support/temp-dir.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const program = await buildProgram(createDeps({ io: IOStreams.forTest(), env: {} }, () => ({})));
const pages = manualOf(program);
const markdown = referenceMarkdown(pages);
const work = suiteTempDir('fleetctl-manual-');

// commander's public word on what help shows: its Help's visible commands (without its implicit `help [command]`)
const shownSubcommands = (command: Command) => new Help().visibleCommands(command).filter((sub) => command.commands.includes(sub));

/** Every command help shows, by its words, with the flags its help lists (its own, and --help). */
function tree(command: Command, words: string[] = [], out: { words: string[]; flags: string[] }[] = []) {
  const flags = command.options.filter((o) => !o.hidden).map((o) => o.long ?? o.short!);
  out.push({ words, flags: [...flags, '--help'] });
  for (const sub of shownSubcommands(command)) tree(sub, [...words, sub.name()], out);
  return out;
}
const commands = tree(program);

/** The Markdown section of one command: from its heading to the next heading. */
function markdownSection(words: string[]): string {
  const title = ['fleetctl', ...words].join(' ');
  const start = markdown.search(new RegExp(`^#{1,6} ${title.replace(/[-]/g, '\\-')}$`, 'm'));
  expect(start, `no heading for ${title}`).toBeGreaterThanOrEqual(0);
  const rest = markdown.slice(markdown.indexOf('\n', start));
  const next = rest.search(/^#{1,6} fleetctl/m);
  return next < 0 ? rest : rest.slice(0, next);
}

describe('the manual covers the command tree', () => {
  it('walks a real tree', () => {
    expect(commands.length).toBeGreaterThan(60);
    expect(commands.map((c) => c.words.join(' '))).toEqual(expect.arrayContaining(['devices reboot', 'help reference', 'webhook-config topics remove']));
  });

  it('one man page per command, no more', () => {
    expect(pages.map((p) => p.name).sort()).toEqual(commands.map((c) => ['fleetctl', ...c.words].join('-')).sort());
  });

  it.each(commands.map((c) => [c.words.join(' ') || '(program)', c] as const))('%s: in the reference and its man page, with every flag', (_name, { words, flags }) => {
    const section = markdownSection(words);
    const page = pages.find((p) => p.path.join(' ') === words.join(' '))!;
    const roff = manPage(page, pages);
    for (const flag of flags) {
      expect(section, `${flag} in the reference of fleetctl ${words.join(' ')}`).toMatch(new RegExp(`\`[^\`\\n]*${flag}\\b[^\`\\n]*\``));
      expect(roff, `${flag} in ${manFileName(page)}`).toMatch(new RegExp(`^\\.B .*${roffText(flag).replace(/\\/g, '\\\\')}\\b`, 'm'));
    }
  });
});

describe('the committed man pages', () => {
  const committed = readdirSync(path.join(root, 'man')).sort();

  it('are what the command tree generates now', () => {
    const stale = `man/ is out of date with the command tree: run \`npm run manual\` (or \`npm run completions\`) and commit the result`;
    expect(committed, stale).toEqual(pages.map(manFileName).sort());
    for (const page of pages) expect(readFileSync(path.join(root, 'man', manFileName(page)), 'utf8') === manPage(page, pages), `${manFileName(page)}: ${stale}`).toBe(true);
  });

  it("are each installed through package.json's man field, and packed", () => {
    const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { man: string[]; files: string[] };
    expect(pkg.man).toEqual(committed.map((file) => `man/${file}`));
    expect(pkg.files).toContain('man');
  });

  it('are well-formed roff: groff reads every page without a warning', () => {
    // one groff for all of them: its warnings name the file
    const result = spawnSync('groff', ['-man', '-Tutf8', '-ww', '-z', ...committed.map((file) => path.join(root, 'man', file))], { encoding: 'utf8' });
    expect(result.status).toBe(0);
    expect(result.stderr).toBe('');
  });

  it('man renders a page: name, synopsis, options and examples', () => {
    const text = execFileSync('man', ['-l', path.join(root, 'man', 'fleetctl-devices-reboot.1')], { encoding: 'utf8', env: { ...process.env, MANPAGER: 'cat', MANWIDTH: '100', LANG: 'C.UTF-8' } });
    expect(text).toMatch(/^NAME\n\s+fleetctl-devices-reboot - Reboot one device/m);
    expect(text).toMatch(/^SYNOPSIS\n\s+fleetctl devices reboot \[options\] \[hardware-ids\.\.\.\]/m);
    expect(text).toMatch(/^\s+--idempotency-key <key>\n\s+replay-safety key/m);
    expect(text).toMatch(/^EXAMPLES\n/m);
    expect(text).toMatch(/^SEE ALSO\n\s+fleetctl-devices\(1\)/m);
  });
});

describe('the man pages at 60 columns (MANWIDTH=60)', () => {
  const committed = readdirSync(path.join(root, 'man')).filter((file) => file.endsWith('.1')).sort();
  const rendered = (file: string, width: number) =>
    execFileSync('man', ['-l', path.join(root, 'man', file)], { encoding: 'utf8', env: { ...process.env, MANPAGER: 'cat', MANWIDTH: String(width), LANG: 'C.UTF-8' } });

  it('no line of any page is wider: synopsis and text filled, examples continued with ` \\`, page names whole', () => {
    const wide = committed.flatMap((file) =>
      rendered(file, 60)
        .split('\n')
        .filter((line) => [...line].length > 60)
        // an identifier longer than the room (a 62-character event id) is never broken: the terminal wraps it, whole
        .filter((line) => !/^\s*\S+$/.test(line))
        .map((line) => `${file}: ${line}`),
    );
    expect(wide).toEqual([]);
  });

  it('the exit codes are a list whose meanings wrap under them, not a block cut by the terminal', () => {
    const text = rendered('fleetctl.1', 60);
    const codes = text.slice(text.indexOf('Exit codes'), text.indexOf('SEE ALSO'));
    expect(codes).toContain('       2      usage or invalid input (bad flag or\n              argument, refused confirmation), or a\n');
    expect(codes).toContain('       130    interrupted (Ctrl-C, SIGTERM)\n');
    // a page name is never broken at its hyphens
    expect(text.slice(text.indexOf('SEE ALSO'))).not.toMatch(/fleetctl-\n/);
  });

  it('an example too long for the line continues with ` \\` and its words whole; a jq program breaks at its spaces', () => {
    const text = rendered('fleetctl-devices-list.1', 60);
    expect(text).toContain(`$ fleetctl --sandbox devices list --all --jq \\\n             'select(.capabilities | index("reboot") |\n               not) | .hardware_id'\n`);
  });
});

describe('fleetctl help', () => {
  async function run(...args: string[]) {
    const io = IOStreams.forTest();
    const code = await main(['node', 'fleetctl', ...args], { io, env: { CI: 'true', FLEETCTL_CONFIG_DIR: path.join(work, 'config') }, signal: new AbortController().signal });
    return { code, stdout: io.stdout(), stderr: io.stderr() };
  }

  it('help reference prints the Markdown reference', async () => {
    const result = await run('help', 'reference');
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe(markdown);
  });

  it('help reference --man-dir writes every page and prints their paths', async () => {
    const dir = path.join(work, 'man1');
    const result = await run('help', 'reference', '--man-dir', dir);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout.trim().split('\n')).toEqual(pages.map((p) => path.join(dir, manFileName(p))));
    expect(readFileSync(path.join(dir, 'fleetctl-devices-reboot.1'), 'utf8')).toBe(manPage(pages.find((p) => p.name === 'fleetctl-devices-reboot')!, pages));
  });

  it('help reference --man-dir into a folder it cannot write: one line, exit 2', async () => {
    const result = await run('help', 'reference', '--man-dir', '/proc/version/man1');
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^Error: --man-dir: cannot write "\/proc\/version\/man1\/fleetctl\.1" \([^\n]+\); give a folder you may write to\n$/);
  });

  it('help WORDS shows the help of a group or verb at any depth', async () => {
    const verb = await run('help', 'devices', 'reboot');
    expect(verb.code).toBe(0);
    expect(verb.stdout).toMatch(/^Usage: fleetctl devices reboot \[options\] \[hardware-ids\.\.\.\]/);
    const group = await run('help', 'devices');
    expect(group.stdout).toMatch(/^Usage: fleetctl devices \[options\] \[command\]/);
    const none = await run('help');
    expect(none.stdout).toMatch(/^Usage: fleetctl \[options\] \[command\]/);
  });

  it('help of a command that does not exist: a usage error naming it', async () => {
    const result = await run('help', 'devices', 'rebooot');
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe('Error: "rebooot" is no command of fleetctl devices; see fleetctl --help\n');
  });
});
