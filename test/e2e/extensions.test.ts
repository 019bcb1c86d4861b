// Extensions on PATH, end to end: `fleetctl NAME ARGS` runs the executable fleetctl-NAME with its arguments whole,
// the profile's context in its environment and a token from `auth token` (never the secret), ends with its exit
// status, and gets the signals fleetctl receives; a command or an alias of the same name runs instead; `extension
// list`, --help and completion name them. Needs `npm run build` first (an extension calls bin/fleetctl.js).
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, startHarness, type SandboxHarness } from './harness.js';
import { readmeExtension } from './examples.js';
import { tempDir } from '../support/temp-dir.js';

let h: SandboxHarness;

beforeAll(async () => {
  h = await startHarness({ devices: 40 });
}, 60_000);
afterAll(async () => h?.close());

/** A folder put first on PATH, holding the extensions named with the scripts given. */
function onPath(scripts: Record<string, string>): Record<string, string> {
  const folder = tempDir('fleetctl-extensions-');
  for (const [name, script] of Object.entries(scripts)) {
    const file = path.join(folder, `fleetctl-${name}`);
    writeFileSync(file, `#!/bin/sh\n${script}\n`);
    chmodSync(file, 0o755);
  }
  return { PATH: `${folder}${path.delimiter}${process.env.PATH ?? ''}` };
}

/** The extension use-token on PATH, a shell script of these lines (for each test its own folder). */
function onPathScript(lines: string[]): () => Record<string, string> {
  return () => onPath({ 'use-token': lines.join('\n') });
}

describe('running an extension', () => {
  it('gets its arguments whole and the profile context; its exit status is fleetctl’s', async () => {
    const env = onPath({ show: `printf '[%s]\\n' "$@"; echo "$FLEETCTL_EXTENSION $FLEETCTL_PROFILE $FLEETCTL_OUTPUT $FLEETCTL_NO_INPUT $FLEETCTL_BASE_URL"; exit 7` });
    const result = await h.cli(['--json', '--no-input', 'show', 'a b', "it's *", '--fleet-id', 'x'], { env, process: true });
    expect(result).toMatchObject({ code: 7, stderr: '' });
    expect(result.stdout).toBe(`[a b]\n[it's *]\n[--fleet-id]\n[x]\nshow default json 1 ${h.sandbox.baseUrl}\n`);
  });

  it('the base URL and auth URL come from the profile when the environment has none; the secret never', async () => {
    const env = onPath({ ctx: 'echo "$FLEETCTL_PROFILE|$FLEETCTL_BASE_URL|$FLEETCTL_AUTH_URL|$FLEETCTL_CLIENT_SECRET|$FLEETCTL_OUTPUT"' });
    const set = await h.cli(['--profile', 'lab', 'config', 'set', 'base_url', 'https://api.lab.test/'], { env });
    expect(set.code).toBe(0);
    await h.cli(['--profile', 'lab', 'config', 'set', 'auth_url', 'https://auth.lab.test'], { env });
    const result = await h.cli(['--profile', 'lab', 'ctx'], { env: { ...env, FLEETCTL_BASE_URL: undefined, FLEETCTL_AUTH_URL: undefined, FLEETCTL_CLIENT_SECRET: undefined } });
    expect(result).toEqual({ code: 0, stdout: 'lab|https://api.lab.test|https://auth.lab.test||table\n', stderr: '' });
  });

  it('calls the sandbox with a token from "$FLEETCTL_EXECUTABLE" auth token', async () => {
    const env = onPath({
      devices: 'exit 99',
      'first-devices': [
        'token=$("$FLEETCTL_EXECUTABLE" auth token --scope devices_read) || exit',
        'curl -fsS -H "Authorization: Bearer $token" "$FLEETCTL_BASE_URL/v1/devices?limit=$1"',
      ].join('\n'),
    });
    const result = await h.cli(['first-devices', '3'], { env, process: true });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const devices = JSON.parse(result.stdout).data as { hardware_id: string }[];
    expect(devices).toHaveLength(3);
    // the same devices fleetctl lists itself: the built-in devices command ran, not the extension of its name
    const listed = await h.cli(['devices', 'list', '--limit', '3', '--jq', '.hardware_id'], { env });
    expect(listed.code).toBe(0);
    expect(listed.stdout.trim().split('\n')).toEqual(devices.map((d) => d.hardware_id));
  });

  it("the README's example lists every device of a fleet, page after page, as fleetctl lists them", async () => {
    // pages of 4 rather than 100: the sandbox's fleets hold a few devices each, and the loop must turn
    const script = readmeExtension().replace(/^#!\/bin\/sh\n/, '');
    expect(script).toContain('-d limit=100');
    const env = onPath({ 'fleet-devices': script.replace('-d limit=100', '-d limit=4') });
    const fleet = (await h.cli(['fleets', 'list', '--limit', '1', '--jq', '.id'])).stdout.trim();
    const listed = await h.cli(['devices', 'list', '--fleet-id', fleet, '--all', '--jq', '.id']);
    expect(listed.code).toBe(0);
    const result = await h.cli(['fleet-devices', fleet], { env, process: true });
    expect(result).toMatchObject({ code: 0, stderr: '' });
    const ids = result.stdout.trim().split('\n').map((line) => (JSON.parse(line) as { id: string }).id);
    expect(ids).toEqual(listed.stdout.trim().split('\n'));
    expect(ids.length).toBeGreaterThan(4);
    const usage = await h.cli(['fleet-devices'], { env, process: true });
    expect(usage.code).not.toBe(0);
    expect(usage.stderr).toContain('usage: fleetctl fleet-devices FLEET_ID');
  });

  it('a global flag no variable carries to it is refused (exit 2), and the extension does not run', async () => {
    const env = onPath({ mark: 'echo ran' });
    for (const before of [['--sandbox'], ['--jq', '.id'], ['--timeout=3']]) {
      const result = await h.cli([...before, 'mark'], { env });
      expect(result.code).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toContain(`${before[0]!.split('=')[0]} before the extension mark would not reach it`);
    }
    expect((await h.cli(['-o', 'xml', 'mark'], { env })).stderr).toContain('xml');
  });

  it('a name no extension has is an unknown command, as before', async () => {
    const result = await h.cli(['no-such-thing'], { env: onPath({}) });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("unknown command 'no-such-thing'");
  });

  it('SIGTERM to fleetctl is passed on: the extension decides how it ends', { timeout: 8000 }, async () => {
    const env = onPath({ wait: `trap 'echo "got TERM"; exit 42' TERM\necho ready\nwhile :; do sleep 0.1; done` });
    const child = spawn(process.execPath, [BIN, 'wait'], { env: { ...h.envFor(), ...env, CI: 'true' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (stdout === 'ready\n') child.kill('SIGTERM');
    });
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(stderr).toBe('');
    expect(stdout).toBe('ready\ngot TERM\n');
    expect(code).toBe(42);
  });
});

describe('the client secret stays with fleetctl', () => {
  /** Prints its environment, the broker's directory's mode and the HTTP status of a request with a token from auth token. */
  const tokenUser = onPathScript([
    'env',
    'echo "mode $(ls -ld "$(dirname "$FLEETCTL_TOKEN_BROKER")" | cut -c1-10)"',
    'token=$("$FLEETCTL_EXECUTABLE" auth token --scope devices_read) || exit',
    'curl -sS -o /dev/null -w "status %{http_code}\\n" -H "Authorization: Bearer $token" "$FLEETCTL_BASE_URL/v1/devices?limit=1"',
  ]);

  it('from FLEETCTL_CLIENT_SECRET: the extension has neither the variable nor the value, and its tokens come from the broker', async () => {
    const secret = h.envFor().FLEETCTL_CLIENT_SECRET;
    const result = await h.cli(['use-token'], { env: tokenUser(), process: true });
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).not.toContain('FLEETCTL_CLIENT_SECRET');
    expect(result.stdout).not.toContain(secret);
    expect(result.stdout).toContain('\nmode drwx------\nstatus 200\n');
    const socket = /^FLEETCTL_TOKEN_BROKER=(.+)$/m.exec(result.stdout)![1]!;
    expect(existsSync(path.dirname(socket))).toBe(false);
  });

  it('from FLEETCTL_CLIENT_SECRET_COMMAND: the command is not passed on either', async () => {
    const file = path.join(tempDir('fleetctl-secret-'), 'secret');
    writeFileSync(file, h.envFor().FLEETCTL_CLIENT_SECRET);
    const env = { ...tokenUser(), FLEETCTL_CLIENT_SECRET: undefined, FLEETCTL_CLIENT_SECRET_COMMAND: `cat '${file}'` };
    const result = await h.cli(['use-token'], { env, process: true });
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).not.toContain('FLEETCTL_CLIENT_SECRET');
    expect(result.stdout).not.toContain(file);
    expect(result.stdout).toMatch(/\nstatus 200\n$/);
  });

  it('an unknown scope asked through the broker is refused (exit 2); credentials that are not usable start no broker', async () => {
    const env = onPath({ ask: '"$FLEETCTL_EXECUTABLE" auth token --scope "$1"; echo "exit $? ${FLEETCTL_TOKEN_BROKER:-no broker}"' });
    const refused = await h.cli(['ask', 'devices_reed'], { env, process: true });
    expect(refused.stdout).toMatch(/^exit 2 \/.+\/tokens\.sock\n$/);
    expect(refused.stderr).toContain('unknown scope "devices_reed"');
    // no client id: auth token in the extension fails as it would without the broker
    const noClient = await h.cli(['ask', 'devices_read'], { env: { ...env, FLEETCTL_CLIENT_ID: undefined }, process: true });
    expect(noClient.stdout).toBe('exit 3 no broker\n');
    expect(noClient.stderr).toContain('no client id for profile "default"');
    // a secret the environment does not carry (here, in the profile's file) the extension's fleetctl reads itself: no broker
    const filed = { ...env, FLEETCTL_PROFILE: 'filed', FLEETCTL_CLIENT_SECRET: undefined };
    expect((await h.cli(['config', 'set', 'client_secret'], { env: filed, input: h.envFor().FLEETCTL_CLIENT_SECRET })).code).toBe(0);
    const secretInFile = await h.cli(['ask', 'devices_read'], { env: filed, process: true });
    expect(secretInFile.stdout).toMatch(/^.+\nexit 0 no broker\n$/);
    expect(secretInFile.stderr).toBe('');
  });
});

describe('names an extension cannot take', () => {
  it('a command of fleetctl and an alias run instead of the extension of their name; extension list says so', async () => {
    const env = onPath({ status: 'echo extension-status', fd: 'echo extension-fd', hello: 'echo hi' });
    expect((await h.cli(['alias', 'set', 'fd', 'fleets list --limit 1 --jq .id'], { env })).code).toBe(0);
    const aliased = await h.cli(['fd'], { env });
    expect(aliased.code).toBe(0);
    expect(aliased.stdout).toMatch(/^[0-9a-f-]{36}\n$/);
    const builtIn = await h.cli(['status', '--json'], { env });
    expect(builtIn.code).toBe(0);
    expect(builtIn.stdout).not.toContain('extension-status');
    expect((await h.cli(['hello'], { env })).stdout).toBe('hi\n');

    const listed = await h.cli(['extension', 'list', '-o', 'json'], { env });
    expect(listed.code).toBe(0);
    const folder = env.PATH!.split(path.delimiter)[0]!;
    expect(JSON.parse(listed.stdout)).toEqual([
      { name: 'fd', path: path.join(folder, 'fleetctl-fd'), shadowed_by: 'alias' },
      { name: 'hello', path: path.join(folder, 'fleetctl-hello'), shadowed_by: null },
      { name: 'status', path: path.join(folder, 'fleetctl-status'), shadowed_by: 'command' },
    ]);
    expect((await h.cli(['alias', 'delete', 'fd'], { env })).code).toBe(0);
  });

  it('the first on PATH wins; a file that is not executable is no extension', async () => {
    const first = onPath({ twin: 'echo first' });
    const second = onPath({ twin: 'echo second', plain: 'echo never' });
    const folder = second.PATH.split(path.delimiter)[0]!;
    chmodSync(path.join(folder, 'fleetctl-plain'), 0o644);
    const env = { PATH: `${first.PATH.split(path.delimiter)[0]}${path.delimiter}${second.PATH}` };
    expect((await h.cli(['twin'], { env })).stdout).toBe('first\n');
    expect((await h.cli(['plain'], { env })).code).toBe(2);
    const names = JSON.parse((await h.cli(['extension', 'list', '--json'], { env })).stdout).map((e: { name: string; path: string }) => `${e.name} ${e.path}`);
    expect(names.filter((line: string) => / .*fleetctl-(twin|plain)$/.test(line))).toEqual([`twin ${path.join(first.PATH.split(path.delimiter)[0]!, 'fleetctl-twin')}`]);
  });
});

describe('extensions in help and completion', () => {
  it('--help names them in a section of their own, a shadowed one marked', async () => {
    const env = onPath({ hello: 'echo hi', devices: 'exit 1' });
    const folder = env.PATH.split(path.delimiter)[0]!;
    const help = await h.cli(['--help'], { env });
    // wrapped at 80 columns
    const section = help.stdout.slice(help.stdout.indexOf('Extensions (fleetctl extension list):\n'), help.stdout.indexOf('Examples:'));
    expect(section.replace(/\s+/g, ' ')).toBe(`Extensions (fleetctl extension list): devices ${folder}/fleetctl-devices (shadowed by the command devices) hello ${folder}/fleetctl-hello `);
    expect((await h.cli(['help', 'reference'], { env })).stdout).toContain(`  hello    ${folder}/fleetctl-hello`);
  });

  it('the first word completes to the extensions that run, beside the aliases', async () => {
    const env = onPath({ 'fleet-report': 'true', fleets: 'true' });
    expect((await h.cli(['alias', 'set', 'fleet-devices', 'devices list --fleet-id $1'], { env })).code).toBe(0);
    const result = await h.cli(['__complete', 'alias-or-extension', '--', 'fleet'], { env });
    expect(result).toMatchObject({ code: 0, stderr: '' });
    const folder = env.PATH.split(path.delimiter)[0]!;
    const [alias, extension, ...more] = result.stdout.split('\n');
    expect([alias, more]).toEqual(['fleet-devices\talias: devices list --fleet-id $1', ['']]);
    // the description is cut to fit beside the name: the path starts it
    expect(`extension: ${folder}/fleetctl-fleet-report`.startsWith(extension!.replace(/^fleet-report\t/, '').replace(/…$/, ''))).toBe(true);
    // alias delete offers aliases only
    expect((await h.cli(['__complete', 'alias', '--', 'fleet'], { env })).stdout).toBe('fleet-devices\talias: devices list --fleet-id $1\n');
    await h.cli(['alias', 'delete', 'fleet-devices'], { env });
  });
});
