import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { shellLine, shellWord } from '../../src/shared/shell-quote.js';

/** What bash makes of a printed line: each word on its own line, NUL-separated so newlines survive. */
function wordsBashSees(line: string): string[] {
  const out = execFileSync('bash', ['-c', `printf '%s\\0' ${line}`], { encoding: 'utf8' });
  return out.split('\0').slice(0, -1);
}

describe('shell words', () => {
  it('leaves plain words bare, and quotes what a shell would expand or split', () => {
    expect(shellWord('--resume')).toBe('--resume');
    expect(shellWord('https://api.example.com:8443/v1')).toBe('https://api.example.com:8443/v1');
    expect(shellWord('/tmp/my run.ndjson')).toBe(`'/tmp/my run.ndjson'`);
    expect(shellWord("it's")).toBe(`'it'\\''s'`);
    expect(shellWord('')).toBe(`''`);
  });

  it('writes control characters as escapes, never raw', () => {
    expect(shellWord('a\nb\x1b[2J')).toBe(`$'a\\012b\\033[2J'`);
    expect(shellWord('a\nb')).not.toMatch(/\n/);
  });

  it('every word reaches bash as it was, whatever it holds', () => {
    const words = ['fleetctl', '--journal', "/tmp/run's $HOME `id` *.ndjson", 'a\nb\tc', '\\x', '!', 'é ü', 'a\u0085b', '$(rm -rf /)'];
    expect(wordsBashSees(shellLine(words))).toEqual(words);
  });
});
