// Scripts get data or nothing (issue 36, point 5), with the built CLI against the sandbox and against the second
// service double: a refusal leaves stdout empty in every output mode, and a page that fails after others were
// printed says where to resume on stderr, whatever stdout is: a line, or the `resume` member of the JSON error.
// The resumed command then prints exactly the rest. Needs `npm run build` first.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type CliResult, type SandboxHarness } from './harness.js';
import { failSecondPage, faultsUsedUp } from './sandbox-faults.js';
import { useSecondHarness, type SecondHarness } from '../support/second-service/harness.js';

const FORMATS = [[], ['-o', 'csv'], ['-o', 'table'], ['-o', 'json'], ['-o', 'ndjson'], ['-o', 'yaml'], ['--jq', '.']].map((flags) => [flags.join(' ') || 'a piped table', flags] as const);

/** The cursor the failure named: the JSON error's resume member, or the resume line. */
function resumeCursor(r: CliResult): string {
  const json = r.stderr.split('\n').find((line) => line.startsWith('{'));
  if (json) return (JSON.parse(json) as { resume: { cursor: string } }).resume.cursor;
  const line = /^Stopped after \d+ items\. To resume from there: the same command with --cursor (\S+)$/m.exec(r.stderr);
  if (!line) throw new Error(`no resume point on stderr:\n${r.stderr}`);
  // quoted for a shell when it needs to be ('...')
  return line[1]!.replace(/^'(.*)'$/, '$1');
}

const lines = (stdout: string) => stdout.split('\n').filter(Boolean);

/**
 * The records printed: NDJSON lines, or the first cell of each row under a piped table's header (its columns are
 * chosen from the first page of each run, which differs between the failed run and the resumed one).
 */
const records = (stdout: string, format: string[]) => (format.length > 0 ? lines(stdout) : lines(stdout).slice(1).map((row) => row.split('\t')[0]!));

describe('against the sandbox', () => {
  let h: SandboxHarness;
  beforeAll(async () => {
    h = await startHarness({ devices: 45 });
  }, 60_000);
  afterAll(() => h?.close());

  it.each(FORMATS)('--columns nosuchcol, %s: a refusal (exit 2 naming it) leaves stdout empty', async (_name, format) => {
    const r = await h.cli(['devices', 'list', '--all', '--limit', '20', '--columns', 'hardware_id,nosuchcol', ...format]);
    // json, ndjson, yaml and --jq carry whole records: --columns has nothing to refuse there, and the data is whole
    if (['json', 'ndjson', 'yaml'].includes(format[1] ?? '') || format[0] === '--jq') {
      expect(r.code, r.stderr).toBe(0);
      return;
    }
    expect(r.code, r.stderr).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('"nosuchcol"');
  });

  it.each(FORMATS)('--sort nosuchfield, %s: exit 2, nothing on stdout', async (_name, format) => {
    const r = await h.cli(['devices', 'list', '--all', '--sort', 'nosuchfield', ...format]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stdout).toBe('');
  });

  it.each([
    ['-o ndjson: the JSON error carries the cursor', ['-o', 'ndjson']],
    ['a piped table: the resume line names the cursor', []],
  ])('a later page fails, %s; the same command from it prints exactly the rest', { timeout: 120_000 }, async (_name, format) => {
    const ids = (stdout: string) => records(stdout, format);
    await failSecondPage(h, 'listDevices');
    const args = ['devices', 'list', '--all', '--limit', '20', ...format];
    const failed = await h.cli([...args, '--max-retries', '0']);
    expect(await faultsUsedUp(h), 'the failure came on the second page').toBe(true);
    expect(failed.code, failed.stderr).toBe(9);
    const first = ids(failed.stdout);
    expect(first).toHaveLength(20);
    const resumed = await h.cli([...args, '--cursor', resumeCursor(failed)]);
    expect(resumed.code, resumed.stderr).toBe(0);
    const whole = await h.cli(args);
    expect([...first, ...ids(resumed.stdout)]).toEqual(ids(whole.stdout));
    expect(ids(whole.stdout).length).toBeGreaterThan(40);
  });

  it.each([
    ['-o ndjson: the JSON error carries the cursor', ['-o', 'ndjson']],
    ['its own JSON: the resume line gives -f cursor=', []],
  ])('api --paginate: a later page fails, %s; from there come exactly the rest', { timeout: 120_000 }, async (_name, format) => {
    await failSecondPage(h, 'listDevices');
    const args = ['api', 'GET', '/v1/devices', '-f', 'limit=20', '--paginate', ...format];
    const failed = await h.cli([...args, '--max-retries', '0']);
    expect(failed.code, failed.stderr).toBe(9);
    const line = /To resume from there: the same command with -f cursor=(\S+)$/m.exec(failed.stderr);
    const cursor = line ? line[1]!.replace(/^'(.*)'$/, '$1') : resumeCursor(failed);
    const items = (r: CliResult) => (format.length > 0 ? lines(r.stdout) : (JSON.parse(r.stdout) as unknown[]).map((item) => JSON.stringify(item)));
    const resumed = await h.cli([...args, '-f', `cursor=${cursor}`]);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(items(failed)).toHaveLength(20);
    expect([...items(failed), ...items(resumed)]).toEqual(items(await h.cli(args)));
  });
});

describe('against the second service double', () => {
  let h: SecondHarness;
  useSecondHarness((harness) => (h = harness));

  it('--columns nosuchcol -o csv: exit 2, nothing on stdout', async () => {
    const r = await h.cli(['devices', 'list', '--limit', '5', '--columns', 'nosuchcol', '-o', 'csv']);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stdout).toBe('');
  });

  it.each([
    ['-o ndjson', ['-o', 'ndjson']],
    ['a piped table', []],
  ])('a later page fails (%s): where to resume is said on stderr, and from there come exactly the rest', { timeout: 120_000 }, async (_name, format) => {
    const args = ['devices', 'list', '--all', '--limit', '30', ...format];
    h.svc.inject({ status: 503, pathPrefix: '/v1/devices', after: 1 });
    const failed = await h.cli([...args, '--max-retries', '0']);
    expect(failed.code, failed.stderr).toBe(9);
    const resumed = await h.cli([...args, '--cursor', resumeCursor(failed)]);
    expect(resumed.code, resumed.stderr).toBe(0);
    const whole = await h.cli(args);
    const rows = (r: CliResult) => records(r.stdout, format);
    expect(rows(failed)).toHaveLength(30);
    expect([...rows(failed), ...rows(resumed)]).toEqual(rows(whole));
  });
});
