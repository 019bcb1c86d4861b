// The client secret in a real Secret Service (the Linux keychain): a private D-Bus session bus with
// gnome-keyring-daemon on it, unlocked, and the built CLI talking to it through @napi-rs/keyring, as on a desktop.
// gnome-keyring and dbus must be installed (.ci/run installs them when missing).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, runCli, startHarness, type SandboxHarness } from './harness.js';

let home: string;
let bus: ChildProcess;
let keyring: ChildProcess;
let busAddress: string;
let harness: SandboxHarness;

/** Starts a session bus of our own and reads its address from the first line it prints. */
async function startSessionBus(): Promise<string> {
  bus = spawn('dbus-daemon', ['--session', '--nofork', '--print-address=1'], { stdio: ['ignore', 'pipe', 'ignore'] });
  const lines = createInterface({ input: bus.stdout! });
  for await (const line of lines) return line.trim();
  throw new Error('dbus-daemon printed no address');
}

/** gnome-keyring-daemon's Secret Service, its login keyring made and unlocked with a password on stdin. */
async function startKeyring(env: NodeJS.ProcessEnv): Promise<void> {
  keyring = spawn('gnome-keyring-daemon', ['--foreground', '--unlock', '--components=secrets'], { env, stdio: ['pipe', 'ignore', 'ignore'] });
  keyring.stdin!.end('a-test-keyring-password');
  // ready once the service name is owned on the bus
  for (let i = 0; i < 100; i++) {
    const owner = spawnSync('dbus-send', ['--session', '--print-reply', '--dest=org.freedesktop.DBus', '/org/freedesktop/DBus', 'org.freedesktop.DBus.NameHasOwner', 'string:org.freedesktop.secrets'], { env, encoding: 'utf8' });
    if (owner.stdout.includes('boolean true')) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('gnome-keyring-daemon did not take org.freedesktop.secrets');
}

/** What the Secret Service holds for a profile, read by a process of its own (as another program would). */
function secretInService(profile: string): string | null {
  const script = `import('@napi-rs/keyring').then(({ Entry }) => process.stdout.write(JSON.stringify(new Entry('fleetctl', ${JSON.stringify(profile)}, { linux: { store: 'secret-service' } }).getPassword())))`;
  const read = spawnSync(process.execPath, ['-e', script], { cwd: ROOT, env: serviceEnv(), encoding: 'utf8' });
  if (read.status !== 0) throw new Error(read.stderr);
  return JSON.parse(read.stdout) as string | null;
}

function serviceEnv(): Record<string, string> {
  return { PATH: process.env.PATH ?? '', HOME: home, DBUS_SESSION_BUS_ADDRESS: busAddress, XDG_DATA_HOME: path.join(home, 'data') };
}

beforeAll(async () => {
  home = mkdtempSync(path.join(os.tmpdir(), 'fleetctl-secret-service-'));
  busAddress = await startSessionBus();
  await startKeyring({ ...serviceEnv() });
  harness = await startHarness();
}, 30_000);

afterAll(async () => {
  keyring?.kill();
  bus?.kill();
  await harness?.close();
  rmSync(home, { recursive: true, force: true });
});

describe('the client secret in a real Secret Service', { timeout: 120_000 }, () => {
  it('auth login stores it there (not in the file), a new shell uses it, status says where, logout removes it', async () => {
    const sandboxEnv = harness.envFor('sandbox-admin');
    const secret = sandboxEnv.FLEETCTL_CLIENT_SECRET;
    // a shell with the keychain on, and no secret in its environment
    const shell = { ...serviceEnv(), FLEETCTL_KEYCHAIN: undefined, FLEETCTL_CLIENT_SECRET: undefined, FLEETCTL_BASE_URL: sandboxEnv.FLEETCTL_BASE_URL, FLEETCTL_AUTH_URL: sandboxEnv.FLEETCTL_AUTH_URL, FLEETCTL_CONFIG_DIR: harness.configDir };
    const run = (args: string[], input?: string) => runCli(args, { env: shell, input, process: true });

    const login = await run(['auth', 'login', '--client-id', 'sandbox-admin', '--client-secret-stdin'], secret);
    expect(login.stderr).toContain('stored in the system keychain');
    expect(login.code).toBe(0);
    expect(secretInService('default')).toBe(secret);
    expect(readFileSync(path.join(harness.configDir, 'config.json'), 'utf8')).not.toContain(secret);

    const list = await run(['devices', 'list', '--limit', '1', '-o', 'json']);
    expect(list.code).toBe(0);
    expect(list.stderr).not.toContain('Error');
    expect(JSON.parse(list.stdout)).toHaveLength(1);

    const status = await run(['auth', 'status', '-o', 'json']);
    expect(status.code).toBe(0);
    expect(status.stdout).toMatch(/keychain/);
    expect(status.stdout).not.toContain(secret);

    const logout = await run(['auth', 'logout']);
    expect(logout.code).toBe(0);
    expect(secretInService('default')).toBeNull();
    const after = await run(['devices', 'list', '--limit', '1']);
    expect(after.code).toBe(3);
  });
});
