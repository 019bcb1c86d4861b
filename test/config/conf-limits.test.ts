// conf does the store's work (reads, checks with local-files.json's ConfigFile, makes the directory, writes atomically)
// except two things it cannot do without breaking a promise; each is shown here on conf itself, in a child process,
// so that the code kept for it (src/config/store.ts) can go the day conf stops doing so.
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openConfigStore } from '../../src/config/store.js';
import { tempConfigDir } from '../support/cli.js';

const ROOT = path.resolve(import.meta.dirname, '../..');

/** Runs an ES module in a child Node, in the repository (so it finds conf); kills it after `killAfterMs` from `mark`. */
function child(code: string, opts: { mark?: string; killAfterMs?: number } = {}): Promise<{ stdout: string; code: number | null; signal: string | null }> {
  return new Promise((resolve) => {
    const proc = spawn(process.execPath, ['--input-type=module', '-e', code], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
    let stdout = '';
    proc.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      // the clock starts at the mark, not at spawn: loading conf on a busy machine takes its time
      if (opts.mark && stdout.includes(opts.mark)) setTimeout(() => proc.kill('SIGKILL'), opts.killAfterMs ?? 1500).unref();
    });
    proc.on('exit', (exitCode, signal) => resolve({ stdout, code: exitCode, signal }));
  });
}

describe('what conf cannot do for the store', () => {
  it('make a directory where mkdir answers ENOENT for a parent that exists (/proc): its recursive mkdir never returns, so the store makes it first', async () => {
    const result = await child(
      "import Conf from 'conf'; console.log('constructing'); new Conf({ cwd: '/proc/fleetctl-nope/config' }); console.log('returned');",
      { mark: 'constructing' },
    );
    expect(result.stdout).toBe('constructing\n');
    expect(result.signal).toBe('SIGKILL');
    // the store: one line naming the level that cannot be made, at once
    const error = await openConfigStore('/proc/fleetctl-nope/config').catch((e: unknown) => e);
    expect((error as Error).message).toMatch(/^cannot use the config directory: cannot create \/proc\/fleetctl-nope \([^\n]+\)$/);
  }, 30_000);

  it('leave SIGINT and SIGTERM to main.ts: loading conf hooks them to kill the process again at once, before a cleanup runs', async () => {
    // main.ts's pattern: the first signal stops the command and lets its cleanups run, a second one ends the process
    const result = await child(`
      let stopping = false;
      const onSignal = () => { if (stopping) process.exit(130); stopping = true; setTimeout(() => { console.log('cleaned up'); process.exit(0); }, 300); };
      process.on('SIGINT', onSignal);
      const before = process.listenerCount('SIGINT') + process.listenerCount('SIGTERM');
      await import('conf');
      console.log('hooks added: ' + (process.listenerCount('SIGINT') + process.listenerCount('SIGTERM') - before));
      process.kill(process.pid, 'SIGINT');
      setTimeout(() => {}, 5000);
    `);
    expect(result.stdout).toBe('hooks added: 2\n');
    expect(result.code).toBe(130);
  }, 30_000);
});

describe('what conf does for the store', () => {
  it('makes the file 0600, and keeps it 0600 when it replaces a file that was not', async () => {
    const dir = tempConfigDir();
    mkdirSync(dir, { recursive: true });
    const file = path.join(dir, 'config.json');
    writeFileSync(file, '{"profiles": {}}', { mode: 0o644 });
    const store = await openConfigStore(dir);
    await store.update((data) => void (data.profiles.p = { client_id: 'c' }));
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ profiles: { p: { client_id: 'c' } }, tokens: {} });
  });

  it('refuses a change to a file that does not fit ConfigFile (its own check), leaving it byte for byte, and again on the next change', async () => {
    const dir = tempConfigDir();
    mkdirSync(dir, { recursive: true });
    const file = path.join(dir, 'config.json');
    const content = '{"profiles": {"p": {"scopes": ["a"]}}}';
    writeFileSync(file, content, { mode: 0o600 });
    const store = await openConfigStore(dir);
    const refusal = `the config store ${file} is corrupted (Config schema violation: \`profiles/p/scopes\` must be string)`;
    await expect(store.update(() => undefined)).rejects.toThrow(refusal);
    await expect(store.update(() => undefined)).rejects.toThrow(refusal);
    expect(readFileSync(file, 'utf8')).toBe(content);
    // reading alone: the same schema, compiled at build (config-validator.gen.ts), refuses it too
    expect(() => store.read()).toThrow(`the config store ${file} is corrupted (profiles.p.scopes: must be a string)`);
  });

  it('refuses a change to a file that holds no JSON object, naming the whole file', async () => {
    const dir = tempConfigDir();
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'config.json'), '[]', { mode: 0o600 });
    const store = await openConfigStore(dir);
    await expect(store.update(() => undefined)).rejects.toThrow('(Config schema violation: the file must be object)');
  });

  it('refuses to write what does not fit ConfigFile, leaving the file as it was', async () => {
    const dir = tempConfigDir();
    const store = await openConfigStore(dir);
    await store.update((data) => void (data.current_profile = 'p'));
    const before = readFileSync(store.path, 'utf8');
    await expect(store.update((data) => void ((data as { current_profile: unknown }).current_profile = 5))).rejects.toThrow(
      'could not write the config store',
    );
    expect(readFileSync(store.path, 'utf8')).toBe(before);
  });

  it('fits ConfigFile as conf reads it: the schema conf is given is local-files.json\'s', async () => {
    const { default: Conf } = await import('conf');
    const dir = tempConfigDir();
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'config.json'), '{"profiles": {"p": {"client_secret_store": "vault"}}}');
    // the store's own refusal, through conf, of a member only the document constrains
    const store = await openConfigStore(dir);
    await expect(store.update(() => undefined)).rejects.toThrow('`profiles/p/client_secret_store` must be equal to constant');
    // conf without a schema takes it: the check is the schema's, not conf's defaults
    expect(new Conf({ cwd: dir }).store).toEqual({ profiles: { p: { client_secret_store: 'vault' } } });
  });

  it('keeps members the schema does not name (ConfigFile allows them)', async () => {
    const dir = tempConfigDir();
    mkdirSync(dir, { recursive: true });
    const file = path.join(dir, 'config.json');
    writeFileSync(file, '{"profiles": {}, "later": {"x": 1}}', { mode: 0o600 });
    const store = await openConfigStore(dir);
    await store.update((data) => void (data.current_profile = 'p'));
    expect(JSON.parse(readFileSync(file, 'utf8')).later).toEqual({ x: 1 });
  });
});
