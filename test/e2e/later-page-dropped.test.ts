// Issue 36, must-show 5: `devices list --all` whose second page gets no answer at all (the double drops the
// connection) keeps what it printed whole and names the cursor to resume from on stderr, whatever the output is:
// with errors as JSON (-o json, --json, -o ndjson) as a member of the error's document, otherwise as a line; the
// cursor named goes on where the list stopped.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type SandboxHarness } from './harness.js';
import { failSecondPage, faultsUsedUp } from './sandbox-faults.js';

let h: SandboxHarness;
let every: string[];

beforeAll(async () => {
  h = await startHarness();
  const whole = await h.cli(['devices', 'list', '--all', '--limit', '100', '-o', 'ndjson']);
  expect(whole.code, whole.stderr).toBe(0);
  every = whole.stdout.trim().split('\n').map((line) => (JSON.parse(line) as { hardware_id: string }).hardware_id);
  expect(every.length).toBeGreaterThan(20);
}, 60_000);

afterAll(() => h?.close());

const LIST = ['devices', 'list', '--all', '--limit', '20', '--max-retries', '0'];
const DROPPED = /^the connection to http:\/\/127\.0\.0\.1:\d+\/v1\/devices was lost before an answer came/;

/** Runs the list with its second page dropped: the outcome, once the drop has been used. */
async function listDroppingPage2(format: string[]) {
  await failSecondPage(h, 'listDevices', { drop: true });
  const r = await h.cli([...LIST, ...format]);
  expect(await faultsUsedUp(h), 'the connection was dropped on the second page').toBe(true);
  expect(r.code, r.stderr).toBe(9);
  return r;
}

/** The rest of the list from the cursor named: with the first 20, every device once. */
async function expectResumeFrom(cursor: string) {
  const rest = await h.cli([...LIST, '--cursor', cursor, '-o', 'ndjson']);
  expect(rest.code, rest.stderr).toBe(0);
  const ids = rest.stdout.trim().split('\n').map((line) => (JSON.parse(line) as { hardware_id: string }).hardware_id);
  expect([...every.slice(0, 20), ...ids]).toEqual(every);
}

describe('a later page whose connection is dropped', { timeout: 120_000 }, () => {
  it.each([[['-o', 'json']], [['--json']]])('%j: a closed JSON array of the first page, and the error a JSON document with where to resume', async (format) => {
    const r = await listDroppingPage2(format);
    const printed = JSON.parse(r.stdout) as { hardware_id: string }[];
    expect(printed.map((d) => d.hardware_id)).toEqual(every.slice(0, 20));
    expect(r.stderr).not.toContain('Stopped after');
    const lines = r.stderr.trim().split('\n');
    expect(lines, r.stderr).toHaveLength(1);
    const error = JSON.parse(lines[0]!) as { title: string; hint: string; resume: { cursor: string; items_printed: number } };
    expect(error.title).toMatch(DROPPED);
    expect(error.hint).toMatch(/retry/);
    expect(error.resume).toEqual({ cursor: expect.any(String), items_printed: 20 });
    await expectResumeFrom(error.resume.cursor);
  });

  it('-o ndjson: the lines of the first page, and the error a JSON document with where to resume', async () => {
    const r = await listDroppingPage2(['-o', 'ndjson']);
    expect(r.stdout.trim().split('\n').map((line) => (JSON.parse(line) as { hardware_id: string }).hardware_id)).toEqual(every.slice(0, 20));
    const error = JSON.parse(r.stderr.trim().split('\n').at(-1)!) as { title: string; resume: { cursor: string; items_printed: number } };
    expect(error.title).toMatch(DROPPED);
    expect(error.resume.items_printed).toBe(20);
    await expectResumeFrom(error.resume.cursor);
  });

  it('a table piped: the rows of the first page, then a line naming the cursor, and the error', async () => {
    const r = await listDroppingPage2([]);
    expect(r.stdout.trim().split('\n')).toHaveLength(21); // the header and the first page
    const stopped = /^Stopped after 20 items\. To resume from there: the same command with --cursor (\S+)$/m.exec(r.stderr);
    expect(stopped, r.stderr).not.toBeNull();
    expect(r.stderr).toMatch(/^Error: the connection to .* was lost before an answer came/m);
    await expectResumeFrom(stopped![1]!.replace(/^'|'$/g, ''));
  });
});
