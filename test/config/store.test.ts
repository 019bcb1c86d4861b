// The config store: one JSON file, mode 0600; a corrupted file is reported, never reset or rewritten.
import { existsSync, readFileSync, statSync, utimesSync, writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { PROFILE_KEYS, configDirectory, configFileSchema, openConfigStore } from '../../src/config/store.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import localFiles from '../../src/openapi/local-files.json' with { type: 'json' };
import { newMockAgent } from '../support/mock-http.js';
import { ciEnv, runCli, tempConfigDir } from '../support/cli.js';

describe('file', () => {
  it("conf's schema (local-files.json's ConfigFile) is valid JSON Schema 2020-12: conf is told not to check it on every open", () => {
    const { schema, rootSchema } = configFileSchema();
    const ajv = new Ajv2020({ strict: true, strictTypes: false });
    addFormats.default(ajv);
    const asConfChecksIt = { ...(rootSchema as object), type: 'object', properties: schema };
    expect(ajv.validateSchema(asConfChecksIt), JSON.stringify(ajv.errors)).toBe(true);
    expect(() => ajv.compile(asConfChecksIt)).not.toThrow();
  });

  it('is written with mode 0600', async () => {
    const dir = tempConfigDir();
    const result = await runCli(['config', 'set', 'client_id', 'abc'], { env: { FLEETCTL_CONFIG_DIR: dir } });
    expect(result.code).toBe(0);
    expect(statSync(path.join(dir, 'config.json')).mode & 0o777).toBe(0o600);
  });

  it('keeps mode 0600 when tokens are cached', async () => {
    const dir = tempConfigDir();
    const store = await openConfigStore(dir);
    await store.update((data) => {
      data.tokens.k = { access_token: 't', scope: 's', obtained_at: 'now' };
    });
    expect(statSync(store.path).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(store.path, 'utf8')).tokens.k.access_token).toBe('t');
  });

  it('has the settings of local-files.json\'s Profile: its string members', () => {
    const members = Object.entries(localFiles.$defs.Profile.properties as Record<string, { type?: string }>);
    expect([...PROFILE_KEYS]).toEqual(members.filter(([, schema]) => schema.type === 'string').map(([name]) => name));
  });

  it('lives in FLEETCTL_CONFIG_DIR, else XDG_CONFIG_HOME/fleetctl', () => {
    expect(configDirectory({ FLEETCTL_CONFIG_DIR: '/tmp/x' })).toBe('/tmp/x');
    expect(configDirectory({ XDG_CONFIG_HOME: '/home/u/.cfg' })).toBe('/home/u/.cfg/fleetctl');
  });

  it('two updates started together both land (the writer loads once, each update reads what the other wrote)', async () => {
    const store = await openConfigStore(tempConfigDir());
    await Promise.all([
      store.update((data) => void (data.tokens.a = { access_token: 'ta', scope: 'a', obtained_at: 'now' })),
      store.update((data) => void (data.tokens.b = { access_token: 'tb', scope: 'b', obtained_at: 'now' })),
    ]);
    expect(Object.keys(JSON.parse(readFileSync(store.path, 'utf8')).tokens).sort()).toEqual(['a', 'b']);
  });

  it('reading writes nothing: a missing store stays missing', async () => {
    const store = await openConfigStore(tempConfigDir());
    expect(store.read().profiles).toEqual({});
    expect(existsSync(store.path)).toBe(false);
  });

  it('reads again what another writer changed, even in place and to the same size; each read is a copy of its own', async () => {
    const store = await openConfigStore(tempConfigDir());
    const written = (id: string) => writeFileSync(store.path, JSON.stringify({ profiles: { p: { client_id: id } } }));
    written('aaaa');
    const first = store.read();
    expect(first.profiles.p?.client_id).toBe('aaaa');
    first.profiles.p!.client_id = 'changed by its reader';
    expect(store.read().profiles.p?.client_id).toBe('aaaa');
    // the same length, written into the same file (an editor saving in place)
    written('bbbb');
    expect(store.read().profiles.p?.client_id).toBe('bbbb');
    writeFileSync(store.path, '[');
    expect(() => store.read()).toThrow(/is corrupted/);
  });

  it('an empty or missing store reads as no profiles', async () => {
    const store = await openConfigStore(tempConfigDir());
    expect(store.read()).toMatchObject({ profiles: {}, tokens: {} });
  });
});

describe('changes from many processes', () => {
  it('a store opened before another one changed the file applies its change to what the file holds now', async () => {
    const dir = tempConfigDir();
    const first = await openConfigStore(dir);
    const second = await openConfigStore(dir);
    await first.update((data) => void (data.profiles.a = { base_url: 'https://a.example' }));
    // `second` was opened before: its token must not undo the profile written meanwhile
    await second.update((data) => void (data.tokens.t = { access_token: 'x', scope: 's', obtained_at: 'now' }));
    const saved = JSON.parse(readFileSync(path.join(dir, 'config.json'), 'utf8'));
    expect(saved.profiles).toEqual({ a: { base_url: 'https://a.example' } });
    expect(Object.keys(saved.tokens)).toEqual(['t']);
    expect(existsSync(path.join(dir, 'config.json.lock'))).toBe(false);
  });

  it('a change waits for the lock a bit, then fails naming the lock file and its holder (exit 6); reading never waits', async () => {
    const dir = tempConfigDir();
    const lockFile = path.join(dir, 'config.json.lock');
    // a live process (this one's parent) holding it, fresh, and the very process that took it (its start time): not stale
    const stat = readFileSync(`/proc/${process.ppid}/stat`, 'utf8');
    const started = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
    writeFileSync(lockFile, JSON.stringify({ pid: process.ppid, process_started: started, hostname: os.hostname(), acquired_at: '2026-11-25T21:00:00.000Z', purpose: 'a change of the config store', token: 'held' }));
    const store = await openConfigStore(dir, { lockWaitMs: 200 });
    expect(store.read().profiles).toEqual({});
    const error = await store.update(() => undefined).catch((e: unknown) => e);
    expect((error as { exitCode: number }).exitCode).toBe(6);
    expect((error as Error).message).toBe(
      `the config store is in use by process ${process.ppid} (a change of the config store, since 2026-11-25T21:00:00.000Z): could not lock ${lockFile} after waiting 0 s`,
    );
    expect(existsSync(path.join(dir, 'config.json'))).toBe(false);
  });

  it('a lock left by a process that crashed is recovered', async () => {
    const dir = tempConfigDir();
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    writeFileSync(path.join(dir, 'config.json.lock'), JSON.stringify({ pid: Number(dead.stdout), hostname: os.hostname(), acquired_at: 'then', purpose: 'config set', token: 'gone' }));
    const store = await openConfigStore(dir, { lockWaitMs: 0 });
    await store.update((data) => void (data.current_profile = 'p'));
    expect(store.read().current_profile).toBe('p');
  });
});

describe('a corrupted store', () => {
  const corruptions = [
    ['invalid JSON', '{"profiles": {"default": {"client_id": "abc"}'],
    ['a wrong shape', '{"profiles": 5}'],
    ['an array', '[]'],
    ['a profile that is not an object', '{"profiles": {"default": "str"}}'],
    ['a setting that is not a string', '{"profiles": {"default": {"base_url": 5}}}'],
    ['a current profile that is not a string', '{"current_profile": 5, "profiles": {}}'],
    ['an alias that is not a string', '{"profiles": {}, "aliases": {"fd": ["devices", "list"]}}'],
  ];
  const commands = [
    ['config', 'list'],
    ['config', 'set', 'client_id', 'x'],
    ['config', 'use', 'other'],
    ['auth', 'logout'],
    ['auth', 'status'],
    ['devices', 'list'],
    ['alias', 'set', 'fd', 'devices list'],
    ['alias', 'list'],
  ];
  for (const [what, content] of corruptions) {
    it.each(commands)(`${what}: %s %s … exits 2 naming the file and the fix, and leaves it byte for byte`, async (...args) => {
      const dir = tempConfigDir();
      mkdirSync(dir, { recursive: true });
      const file = path.join(dir, 'config.json');
      writeFileSync(file, content, { mode: 0o600 });
      const result = await runCli(args, { env: ciEnv(dir), agent: newMockAgent() });
      expect(result.code).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toContain(`Error: the config store ${file} is corrupted`);
      expect(result.stderr).toMatch(/^Hint: fix the JSON by hand, or move the file aside \(mv /m);
      expect(result.stderr).not.toMatch(/^\s+at /m);
      expect(readFileSync(file, 'utf8')).toBe(content);
    });
  }

  it('auth login with a corrupted store exits 2 and leaves it alone', async () => {
    const dir = tempConfigDir();
    const file = path.join(dir, 'config.json');
    writeFileSync(file, 'not json at all', { mode: 0o600 });
    const args = ['auth', 'login', '--base-url', 'https://api.fleet.test', '--client-id', 'c', '--client-secret-stdin'];
    const result = await runCli(args, { env: { FLEETCTL_CONFIG_DIR: dir }, stdin: 'secret', agent: newMockAgent() });
    expect(result.code).toBe(2);
    expect(readFileSync(file, 'utf8')).toBe('not json at all');
  });
});

describe('leftovers of writes that never finished', () => {
  it('config.json.tmp-* files older than a minute are removed by the next change; a recent one is left', async () => {
    const dir = tempConfigDir();
    mkdirSync(dir, { recursive: true });
    const stale = path.join(dir, 'config.json.tmp-1764230000abcdef');
    const recent = path.join(dir, 'config.json.tmp-1764239999fedcba');
    writeFileSync(stale, '{"profiles":');
    writeFileSync(recent, '{"profiles":');
    const old = new Date(Date.now() - 120_000);
    utimesSync(stale, old, old);
    const store = await openConfigStore(dir);
    await store.update((data) => void (data.profiles.p = { client_id: 'c' }));
    expect(existsSync(stale)).toBe(false);
    expect(existsSync(recent)).toBe(true);
    expect(JSON.parse(readFileSync(path.join(dir, 'config.json'), 'utf8')).profiles).toEqual({ p: { client_id: 'c' } });
  });
});
