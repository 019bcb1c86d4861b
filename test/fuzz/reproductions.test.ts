// The reproductions of issue 14, each as it was reported: a documented exit code (never 1), one line naming the
// bad input (visible escapes, cut when long), nothing sent that could never form a request, within 2 s.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/main.js';
import { CancelledError } from '../../src/errors.js';
import { IOStreams } from '../../src/io/streams.js';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';

let sandbox: RunningSandbox;
let dir: string;
let env: NodeJS.ProcessEnv;
let hardwareId: string;

interface Run {
  code: number;
  stdout: string;
  stderr: string;
  ms: number;
}

async function cli(args: string[], opts: { stdin?: string | PassThrough; interruptAfterMs?: number } = {}): Promise<Run> {
  const configDir = mkdtempSync(path.join(dir, 'config-'));
  const io = IOStreams.forTest({ stdin: opts.stdin, env: { CI: 'true' } });
  const controller = new AbortController();
  const timer = opts.interruptAfterMs === undefined ? undefined : setTimeout(() => controller.abort(new CancelledError()), opts.interruptAfterMs);
  const started = performance.now();
  const code = await main(['node', 'fleetctl', ...args], { io, env: { ...env, FLEETCTL_CONFIG_DIR: configDir }, signal: controller.signal });
  clearTimeout(timer);
  return { code, stdout: io.stdout(), stderr: io.stderr(), ms: performance.now() - started };
}

const executed = async () => ((await (await fetch(`${sandbox.baseUrl}/_sandbox/commands`)).json()) as unknown[]).length;

/** Refused with 2 in one `Error:` line (and a hint at most), within 2 s. */
function expectRefused(run: Run, message: string | RegExp): void {
  expect(run.code, run.stderr).toBe(2);
  expect(run.stdout).toBe('');
  const lines = run.stderr.trimEnd().split('\n');
  expect(lines[0]).toMatch(typeof message === 'string' ? new RegExp(`^Error: ${message.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`) : message);
  expect(lines.slice(1).every((line) => line.startsWith('Hint: '))).toBe(true);
  expect(run.stderr).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f]/);
  expect(run.stderr.length).toBeLessThan(1000);
  expect(run.ms).toBeLessThan(2000);
}

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'fleetctl-repro-'));
  sandbox = await startSandbox({ host: '127.0.0.1', port: 0, log: () => undefined });
  const admin = sandbox.clients.find((c) => c.client_id === 'sandbox-admin')!;
  env = { CI: 'true', FLEETCTL_BASE_URL: sandbox.baseUrl, FLEETCTL_AUTH_URL: sandbox.authUrl, FLEETCTL_CLIENT_ID: admin.client_id, FLEETCTL_CLIENT_SECRET: admin.client_secret };
  const list = await cli(['devices', 'list', '--limit', '1', '-o', 'json']);
  hardwareId = (JSON.parse(list.stdout) as { hardware_id: string }[])[0]!.hardware_id;
});

afterAll(async () => {
  await sandbox?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('issue 14: values that cannot fit a request are refused before sending', () => {
  it('a 100,000-character --cursor', async () => {
    expectRefused(await cli(['devices', 'list', '--cursor', 'x'.repeat(100_000)]), /^Error: the cursor parameter is too long to send: "x{39}… \(100000 characters\)" does not fit in the request URL/);
  });

  it('a 70,000-character -H value to api', async () => {
    expectRefused(await cli(['api', 'GET', '/v1/fleets', '-H', `X-A: ${'x'.repeat(70_000)}`]), /^Error: the X-A header is too long to send/);
  });
});

describe('issue 14: no internal error on bad input', () => {
  it.each([
    [['devices', 'events', 'HW', '--since', '9999999999d'], '--since must be at most 36500d, got "9999999999d"'],
    [['events', 'search', '--hardware-id', 'HW', '--from', '9999999999d', '--to', '1h'], '--from must be at most 36500d, got "9999999999d"'],
  ])('%j', async (args, message) => {
    expectRefused(await cli(args), message);
  });

  // a field no record carries is judged on the first page, before any byte reaches stdout
  it.each(['constructor', 'toString', '__proto__'])('devices list --columns %s: exit 2 naming it, no internal error', async (name) => {
    const run = await cli(['devices', 'list', '--columns', name]);
    expect(run.code, run.stderr).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr.split('\n')[0]).toBe(`Error: --columns: no record has the field "${name}", and the API document does not describe it`);
    expect(run.stderr).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f]|TypeError|at .*\.js/);
  });

  it.each(['__proto__', 'constructor', 'toString'])('api GET /v1/fleets -f %s=x is a query parameter like any other', async (name) => {
    const run = await cli(['api', 'GET', '/v1/fleets', '-f', `${name}=x`]);
    expect(run.code, run.stderr).toBe(0);
    expect((JSON.parse(run.stdout) as { data: unknown[] }).data.length).toBeGreaterThan(0);
  });

  it('--columns constructor on a command without a record schema is refused as any unknown column is, not a crash', async () => {
    const run = await cli(['config', 'profiles', '--columns', 'constructor']);
    expect([run.code, run.stdout, run.stderr.split('\n')[0]]).toEqual([2, '', 'Error: --columns: these rows have no field "constructor"']);
  });

  it('api POST --input with a 200,000-deep JSON array', async () => {
    const file = path.join(dir, 'deep.json');
    writeFileSync(file, `${'['.repeat(200_000)}${']'.repeat(200_000)}`);
    expectRefused(await cli(['api', 'POST', '/v1/drivers', '--input', file]), /^Error: --input ".*deep\.json" is nested more than 64 levels deep$/);
  });
});

describe('issue 14: hardware ids that can never form a request are refused, with their line, before any request', () => {
  it('a NUL on stdin', async () => {
    const before = await executed();
    expectRefused(await cli(['devices', 'reboot', '--from-file', '-', '--yes'], { stdin: '\u0000\n' }), 'hardware id "\\x00" (line 1 of --from-file (stdin)) contains control characters');
    expect(await executed()).toBe(before);
  });

  it('a binary file', async () => {
    const file = path.join(dir, 'binary.bin');
    writeFileSync(file, Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 131 + 7) % 256)));
    expectRefused(await cli(['devices', 'reboot', '--from-file', file, '--yes']), /^Error: hardware id ".*" \(line \d+ of --from-file ".*binary\.bin"\) contains control characters$/);
  });

  it('a 5 MB one-line "id" is refused, and not echoed whole', async () => {
    const file = path.join(dir, 'one-line.txt');
    writeFileSync(file, 'x'.repeat(5_000_000));
    expectRefused(await cli(['devices', 'reboot', '--from-file', file, '--yes']), /^Error: hardware id "x{39}… \(5000000 characters\)" \(line 1 of --from-file ".*one-line\.txt"\) is 5000000 characters long/);
  });

  it('an escape sequence as an argument is shown as \\x1b', async () => {
    expectRefused(await cli(['devices', 'events', '\u001b[31mX', '--since', '1h']), 'hardware id "\\x1b[31mX" contains control characters');
    expectRefused(await cli(['devices', 'get', '\u001b[31mX']), 'hardware id "\\x1b[31mX" contains control characters');
  });

  it('a free-form id of any script still goes out, in bulk too: its key is hashed into printable ASCII', async () => {
    const run = await cli(['devices', 'reboot', 'HW-日本', hardwareId, '--yes', '--idempotency-key', 'repro-14', '-o', 'json']);
    expect(run.ms).toBeLessThan(2000);
    const results = JSON.parse(run.stdout) as { hardware_id: string; status: string; idempotency_key: string }[];
    expect(results.map((r) => r.status).sort()).toEqual(['accepted', 'not_found']);
    expect(results.find((r) => r.hardware_id === 'HW-日本')!.idempotency_key).toMatch(/^repro-14:HW-__~[0-9a-f]{64}$/);
  });
});

describe('issue 14: input files are bounded and interruptible', () => {
  it('/dev/zero is refused at once', async () => {
    expectRefused(await cli(['drivers', 'create', '--from-file', '/dev/zero']), 'cannot read --from-file "/dev/zero": it is a character device, not a regular file');
  });

  it('a FIFO nobody writes to, and stdin that never ends, stop within 2 s of Ctrl-C', async () => {
    const fifo = path.join(dir, 'fifo');
    execFileSync('mkfifo', [fifo]);
    const fromFifo = await cli(['drivers', 'create', '--from-file', fifo], { interruptAfterMs: 300 });
    expect(fromFifo.code).toBe(130);
    expect(fromFifo.ms).toBeLessThan(2300);
    const open = new PassThrough();
    open.write(`${hardwareId}\n`);
    const fromStdin = await cli(['devices', 'reboot', '--from-file', '-', '--yes'], { stdin: open, interruptAfterMs: 300 });
    expect(fromStdin.code).toBe(130);
    expect(fromStdin.ms).toBeLessThan(2300);
  });
});

describe('issue 14: files fleetctl keeps must be regular files', () => {
  it('a FIFO as --state or --journal is refused before it is read, written or deleted', async () => {
    const fifo = path.join(dir, 'kept-fifo');
    execFileSync('mkfifo', [fifo]);
    expectRefused(await cli(['sandbox', 'reset', '--state', fifo]), /^Error: --state ".*kept-fifo" is a named pipe, not a regular file$/);
    expectRefused(await cli(['sandbox', '--port', '0', '--state', fifo]), /^Error: --state ".*kept-fifo" is a named pipe, not a regular file$/);
    expectRefused(await cli(['devices', 'reboot', '--resume', '20240601T120000Z-3f9a1c', '--journal', fifo, '--yes']), /^Error: the journal ".*kept-fifo" is a named pipe/);
    expect(statSync(fifo).isFIFO()).toBe(true);
  });

  it('sandbox reset --state FILE resets that file (the parent command has a --state of its own)', async () => {
    const state = path.join(dir, 'state.json');
    writeFileSync(state, '{}');
    writeFileSync(`${state}.changes`, '{}\n');
    const run = await cli(['sandbox', 'reset', '--state', state]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toBe(`Sandbox state reset (${state}).\n`);
    expect(() => statSync(state)).toThrow();
    // its log of changes with it
    expect(() => statSync(`${state}.changes`)).toThrow();
  });
});

describe('issue 14: names the user chooses', () => {
  it('a profile named __proto__ is stored and read back like any other', async () => {
    const configDir = path.join(dir, 'proto-profile');
    mkdirSync(configDir);
    const run = async (args: string[]) => {
      const io = IOStreams.forTest({ env: { CI: 'true' } });
      const code = await main(['node', 'fleetctl', ...args], { io, env: { CI: 'true', FLEETCTL_CONFIG_DIR: configDir }, signal: new AbortController().signal });
      return { code, stdout: io.stdout(), stderr: io.stderr() };
    };
    expect((await run(['--profile', '__proto__', 'config', 'set', 'base_url', 'http://127.0.0.1:4010'])).code).toBe(0);
    const read = await run(['--profile', '__proto__', 'config', 'get', 'base_url']);
    expect(read.stdout.trim()).toBe('http://127.0.0.1:4010');
    expect((await run(['--profile', 'constructor', 'config', 'get', 'base_url'])).stdout).not.toContain('function');
  });

  it("commander's own messages show escapes and cut long input", async () => {
    const run = await cli(['devices', 'list', `--\u001b[31m${'x'.repeat(5000)}`]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^Error: unknown option "--\\x1b\[31mx+… \(5007 characters\)"/);
    expect(run.stderr).not.toContain('\u001b');
    expect(run.stderr.length).toBeLessThan(600);
  });
});
