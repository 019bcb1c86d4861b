// Where to go on from, seen on a terminal (issue 36, point 5), at 80 and 160 columns: a cursor too long for a line
// is not printed whole (a 1.5 kB one filled 21 lines) but read from the file the hint names, and the words the
// hint gives run as printed; a page that fails while stdout goes to a file still says where to resume, on the
// terminal. Needs `npm run build` first.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, startHarness, type SandboxHarness } from '../harness.js';
import { failSecondPage } from '../sandbox-faults.js';
import { startPty } from '../../support/pty.js';
import { startShellPty } from '../../support/shell-pty.js';
import { useSecondHarness, type SecondHarness } from '../../support/second-service/harness.js';
import { tempDir } from '../../support/temp-dir.js';

const run = promisify(execFile);
const CURSOR_LENGTH = 1500;

describe('a 1500-character cursor', { timeout: 60_000 }, () => {
  let second: SecondHarness;
  useSecondHarness((harness) => (second = harness), { cursorLength: CURSOR_LENGTH });

  it.each([80, 160])('at %i columns: the hint names a file, not the cursor; its words give the next page', async (cols) => {
    const env = second.svc.envFor(second.svc.clients.admin, second.configDir);
    const session = startPty(['devices', 'list', '--limit', '2'], { cols, rows: 40, env });
    expect((await session.waitForExit()).code).toBe(0);
    const lines = session.lines();
    const text = lines.map((line) => (line.wrapped ? '' : '\n') + line.text).join('');
    const hint = /^More results: add (--cursor "\$\(cat (\S+)\)") for the next page \(the cursor, 1500 characters, is in (\S+)\), or --all for every page\.$/m.exec(text);
    expect(hint, text).not.toBeNull();
    const [, words, file, named] = hint!;
    expect(named).toBe(file);
    // the hint takes a line or two, and nothing of the cursor is on the screen
    expect(lines.filter((line) => line.text.includes('LLLLLLLLLL'))).toEqual([]);
    expect(lines.length).toBeLessThan(20);
    const cursor = readFileSync(file!, 'utf8').trim();
    expect(cursor).toHaveLength(CURSOR_LENGTH);
    // pasted into a shell as printed, the words give the next page
    const next = await run('bash', ['--norc', '--noprofile', '-c', `node ${BIN} devices list --limit 2 -o ndjson ${words}`], { env: { PATH: process.env.PATH ?? '', HOME: second.configDir, CI: 'true', ...env } });
    const first = await run('bash', ['--norc', '--noprofile', '-c', `node ${BIN} devices list --limit 4 -o ndjson`], { env: { PATH: process.env.PATH ?? '', HOME: second.configDir, CI: 'true', ...env } });
    expect(next.stdout.trim().split('\n')).toEqual(first.stdout.trim().split('\n').slice(2));
  });
});

describe('a later page fails while stdout goes to a file', { timeout: 60_000 }, () => {
  let h: SandboxHarness;
  beforeAll(async () => {
    h = await startHarness({ devices: 45 });
  }, 60_000);
  afterAll(() => h?.close());

  it.each([
    [80, '> out.tsv', /^Stopped after 20 items\. To resume from there: the same command with --cursor \S+$/m],
    [160, '> out.tsv', /^Stopped after 20 items\. To resume from there: the same command with --cursor \S+$/m],
    [80, '-o ndjson > out.ndjson', /"resume":\{"cursor":"[^"]+","items_printed":20\}/],
    [160, '-o ndjson > out.ndjson', /"resume":\{"cursor":"[^"]+","items_printed":20\}/],
  ])('at %i columns, `devices list --all %s`: the terminal is told where to resume, the file has the 20 items', async (cols, redirect, said) => {
    await failSecondPage(h, 'listDevices');
    const dir = tempDir('fleetctl-resume-');
    const line = `node ${BIN} devices list --all --limit 20 --max-retries 0 ${redirect}; echo "exit=$?"`;
    const shell = startShellPty({ command: ['bash', '--norc', '--noprofile', '-c', line], env: { PATH: process.env.PATH ?? '', HOME: h.configDir, TERM: 'xterm-256color', ...h.envFor() }, cwd: dir, cols, rows: 24 });
    try {
      const screen = await shell.waitFor(/exit=\d+/, 30_000);
      expect(screen).toContain('exit=9');
      // the terminal wraps a long line: its rows are read as one
      expect(screen.replace(/\n(?!Stopped|Error|Hint|exit=|\{)/g, '')).toMatch(said);
    } finally {
      shell.close();
    }
    const file = readFileSync(path.join(dir, redirect.includes('ndjson') ? 'out.ndjson' : 'out.tsv'), 'utf8');
    expect(file.trim().split('\n')).toHaveLength(redirect.includes('ndjson') ? 20 : 21);
  });
});
