// --log-format json: commander's own refusals (an unknown option or command, a value outside a flag's choices) are
// JSON lines too, as every message on stderr is; the flag is read wherever it stands on the line.
import { describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { main } from '../src/main.js';
import { IOStreams } from '../src/io/streams.js';
import { ciEnv, tempConfigDir } from './support/cli.js';
import { absentKeychain } from './support/keychain.js';

async function run(args: string[], env: Record<string, string> = {}) {
  const all = { ...ciEnv(tempConfigDir()), ...env };
  // the streams read FLEETCTL_LOG_FORMAT as the process's do
  const io = IOStreams.forTest({ tty: false, stdin: '', env: all });
  const code = await main(['node', 'fleetctl', ...args], { io, env: all, keychain: absentKeychain(), signal: new AbortController().signal });
  return { code, stderr: io.stderr() };
}

function jsonLines(stderr: string): Record<string, unknown>[] {
  return stderr.trimEnd().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('usage errors with --log-format json', () => {
  it('an unknown option, an unknown command, a refused choice: each an error line, a suggestion a hint line, exit 2', async () => {
    const cases: [string[], string, string | undefined][] = [
      [['--log-format', 'json', 'devices', 'list', '--bogus'], "unknown option '--bogus'", undefined],
      [['devices', 'list', '--limt', '3', '--log-format', 'json'], "unknown option '--limt'", 'Did you mean --limit?'],
      [['--log-format', 'json', 'devicez', 'list'], "unknown command 'devicez'", 'Did you mean devices?'],
      [['--log-format', 'json', '-o', 'tsv', 'devices', 'list'], "argument 'tsv' is invalid", undefined],
    ];
    for (const [args, error, hint] of cases) {
      const result = await run(args);
      expect(result.code, args.join(' ')).toBe(2);
      const lines = jsonLines(result.stderr);
      expect(lines[0], args.join(' ')).toMatchObject({ level: 'error', message: expect.stringContaining(error) });
      expect(lines[0]!.message).not.toMatch(/^error:/i);
      if (hint) expect(lines[1]).toMatchObject({ level: 'hint', message: expect.stringContaining(hint) });
      else expect(lines).toHaveLength(1);
    }
  });

  it('--guided refused where it cannot ask (not a terminal), and an operand given to it: JSON lines too', async () => {
    for (const args of [['--log-format', 'json', '--guided'], ['--guided', '--log-format', 'json', 'devices']]) {
      const result = await run(args);
      expect(result.code, args.join(' ')).toBe(2);
      expect(jsonLines(result.stderr), args.join(' ')).toEqual([expect.objectContaining({ level: 'error', message: expect.stringMatching(/^--guided asks /) })]);
    }
  });

  it('an extension refused before it runs (a global flag that would not reach it): JSON lines, the flag given either way', async () => {
    const bin = tempConfigDir();
    writeFileSync(path.join(bin, 'fleetctl-qa-report'), '#!/bin/sh\nexit 0\n', { mode: 0o755 });
    for (const args of [['--log-format', 'json', '--sandbox', 'qa-report'], ['--sandbox', '--log-format=json', 'qa-report', '--log-format', 'text']]) {
      const result = await run(args, { PATH: `${bin}${path.delimiter}${process.env.PATH ?? ''}` });
      expect(result.code, args.join(' ')).toBe(2);
      expect(jsonLines(result.stderr)[0], args.join(' ')).toMatchObject({ level: 'error', message: '--sandbox before the extension qa-report would not reach it' });
    }
  });

  it('FLEETCTL_LOG_FORMAT=json does the same; text stays as it was', async () => {
    expect(jsonLines((await run(['devices', 'list', '--bogus'], { FLEETCTL_LOG_FORMAT: 'json' })).stderr)[0]).toMatchObject({ level: 'error' });
    expect((await run(['devices', 'list', '--bogus'])).stderr).toBe("Error: unknown option '--bogus'\n");
  });
});
