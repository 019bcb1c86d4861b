// The exit-code table is total: every HTTP status the client can meet maps, by class, to a code that `--help`
// and the README document, and to the line that names it.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ApiError, ExitCode, exitCodeForStatus } from '../src/errors.js';
import { EXIT_CODES_HELP } from '../src/exit-codes-help.js';

const README = readFileSync(path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'README.md'), 'utf8');

interface Documented {
  code: number;
  /** Statuses the line names one by one (HTTP 401, 407). */
  statuses: Set<number>;
  /** Classes it names (5xx), and whether it takes "any other status". */
  classes: Set<number>;
  anyOther: boolean;
}

/** The entries of `--help`: a code at the start of a line, its text running on over indented lines. */
function helpEntries(): Documented[] {
  const entries: { code: number; text: string }[] = [];
  for (const line of EXIT_CODES_HELP.split('\n').slice(1)) {
    const start = /^ {2}(\d+)\s+(.*)$/.exec(line);
    if (start) entries.push({ code: Number(start[1]), text: start[2]! });
    else entries[entries.length - 1]!.text += ` ${line.trim()}`;
  }
  return entries.map(({ code, text }) => documented(code, text));
}

function readmeEntries(): Documented[] {
  const table = README.slice(README.indexOf('## Exit codes'));
  return [...table.matchAll(/^\| (\d+) \| (.*) \|$/gm)].map((match) => documented(Number(match[1]), match[2]!));
}

function documented(code: number, text: string): Documented {
  // statuses are named after "HTTP" and in the lists that follow it: "HTTP 400 and any other 4xx (405, 413 ...)"
  const httpPart = text.slice(Math.max(0, text.indexOf('HTTP')));
  const statuses = new Set(text.includes('HTTP') ? [...httpPart.matchAll(/\b([1-5]\d\d)\b/g)].map((m) => Number(m[1])) : []);
  const classes = new Set([...httpPart.matchAll(/\b([1-5])xx\b/g)].map((m) => Number(m[1])));
  return { code, statuses, classes, anyOther: /any other status/.test(text) };
}

/** The code the documentation gives a status: the one line naming it, else the one naming its class, else "any other". */
function documentedCode(entries: Documented[], status: number): number | undefined {
  const named = entries.filter((e) => e.statuses.has(status));
  if (named.length > 0) return named.length === 1 ? named[0]!.code : undefined;
  const byClass = entries.filter((e) => e.classes.has(Math.floor(status / 100)));
  if (byClass.length > 0) return byClass.length === 1 ? byClass[0]!.code : undefined;
  return entries.find((e) => e.anyOther)?.code;
}

describe('exit codes by HTTP status', () => {
  const help = helpEntries();
  const readme = readmeEntries();

  it('--help and the README document the same codes, naming the same statuses', () => {
    expect(help.map((e) => e.code)).toEqual(readme.map((e) => e.code));
    expect(help.map((e) => e.code).sort((a, b) => a - b)).toEqual(Object.values(ExitCode).sort((a, b) => a - b));
    for (const [i, entry] of help.entries()) {
      expect([...entry.statuses].sort(), `code ${entry.code}`).toEqual([...readme[i]!.statuses].sort());
      expect([...entry.classes].sort(), `code ${entry.code}`).toEqual([...readme[i]!.classes].sort());
      expect(entry.anyOther).toBe(readme[i]!.anyOther);
    }
  });

  it('every status from 100 to 599 maps to the documented code of its line or class, never 1', () => {
    const wrong: string[] = [];
    for (let status = 100; status <= 599; status++) {
      const code = exitCodeForStatus(status);
      if (status >= 200 && status < 300) {
        if (code !== ExitCode.ok) wrong.push(`${status} → ${code}, expected success`);
        continue;
      }
      const expected = documentedCode(help, status);
      if (code === ExitCode.internal || code !== expected) wrong.push(`${status} → ${code}, documented ${expected}`);
    }
    expect(wrong).toEqual([]);
  });

  it('the statuses users meet most have their own code', () => {
    const cases: [number, number][] = [
      [400, 2], [405, 2], [413, 2], [414, 2], [415, 2], [418, 2], [431, 2], [451, 2],
      [401, 3], [407, 3], [403, 4], [404, 5], [410, 5], [409, 6], [412, 6], [428, 6], [422, 7], [429, 8],
      [408, 9], [500, 9], [502, 9], [504, 9], [599, 9], [301, 9], [307, 9], [100, 9],
    ];
    for (const [status, code] of cases) expect(new ApiError({ status }).exitCode, `HTTP ${status}`).toBe(code);
  });
});
