import { describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { createDeps } from '../src/factory.js';
import { IOStreams } from '../src/io/streams.js';
import { cacheFileFor, bundledDocument } from '../src/api/served-document.js';
import { BASE_URL, newMockAgent } from './support/mock-http.js';
import { tempDir } from './support/temp-dir.js';

const served = { openapi: '3.1.1', paths: { '/v1/things': { get: { security: [{ oauth2: ['s'] }] } } } };

function depsWith(env: NodeJS.ProcessEnv) {
  const agent = newMockAgent();
  const io = IOStreams.forTest({ tty: false });
  const configDir = tempDir('factory-');
  const deps = createDeps({ io, env: { FLEETCTL_CONFIG_DIR: configDir, FLEETCTL_KEYCHAIN: 'off', ...env }, dispatcher: agent }, () => ({}));
  return { deps, agent, io, configDir };
}

describe('deps.servedDocument', () => {
  it('fetches the document of the base URL once per process, on the first call only', async () => {
    const { deps, agent, configDir } = depsWith({ FLEETCTL_BASE_URL: BASE_URL });
    agent.get(BASE_URL).intercept({ path: '/openapi/v1.json', method: 'GET' }).reply(200, served, { headers: { 'content-type': 'application/json' } }).times(1);
    const [first, second] = await Promise.all([deps.servedDocument(), deps.servedDocument()]);
    expect(first).toEqual({ document: served, source: 'served' });
    expect(await deps.servedDocument()).toBe(second);
    expect(existsSync(cacheFileFor(configDir, BASE_URL))).toBe(true);
  });

  it('the bundled document stands in, with one warning, when the service serves none', async () => {
    const { deps, agent, io } = depsWith({ FLEETCTL_BASE_URL: BASE_URL });
    agent.get(BASE_URL).intercept({ path: '/openapi/v1.json', method: 'GET' }).reply(404, '').times(1);
    expect((await deps.servedDocument()).source).toBe('bundled');
    await deps.servedDocument();
    expect(io.stderr()).toBe(`Warning: could not read the API document from ${BASE_URL}/openapi/v1.json (HTTP 404); using the one bundled with fleetctl\n`);
  });

  it.each([[undefined], ['not a url'], ['ftp://files.example.com']])('without a usable base URL (%s): the bundled document, silently, and nothing fetched', async (baseUrl) => {
    const { deps, io } = depsWith(baseUrl === undefined ? {} : { FLEETCTL_BASE_URL: baseUrl });
    expect(await deps.servedDocument()).toEqual({ document: await bundledDocument(), source: 'bundled' });
    expect(io.stderr()).toBe('');
  });
});

describe('createDeps', () => {
  const override = { baseUrl: 'http://127.0.0.1:4010', authUrl: 'http://127.0.0.1:4011', clientId: 'sandbox-admin', clientSecret: 's', tokenCacheAs: 'embedded-sandbox' };

  function depsWithOverride(globals: { sandbox?: boolean }) {
    const io = IOStreams.forTest({ tty: false });
    const configDir = tempDir('factory-');
    const started: unknown[] = [];
    const startOverride = async (deps: unknown) => {
      started.push(deps);
      return override;
    };
    const deps = createDeps({ io, env: { FLEETCTL_CONFIG_DIR: configDir, FLEETCTL_KEYCHAIN: 'off', FLEETCTL_BASE_URL: BASE_URL }, startOverride }, () => globals);
    return { deps, started };
  }

  it('is built once: its members cannot be replaced afterwards', () => {
    const { deps } = depsWith({});
    expect(() => Object.assign(deps, { settings: async () => undefined })).toThrow(TypeError);
    expect(Object.isFrozen(deps)).toBe(true);
  });

  it('with --sandbox, starts the override given at construction once, however many ask at once, and resolves settings with it', async () => {
    const { deps, started } = depsWithOverride({ sandbox: true });
    const [first, second] = await Promise.all([deps.settings(), deps.settings()]);
    expect(started).toEqual([deps]);
    expect(first.base_url).toEqual({ value: 'http://127.0.0.1:4010', source: 'flag' });
    expect(second.profile).toEqual({ value: 'sandbox', source: 'flag' });
    expect(first.tokenCacheAs).toBe('embedded-sandbox');
    // a derived view (completion) uses the sandbox already started rather than a second one
    expect((await deps.derive({}).settings()).auth_url.value).toBe('http://127.0.0.1:4011');
    expect(started).toHaveLength(1);
  });

  it('without --sandbox, never starts it: the configured settings stand', async () => {
    const { deps, started } = depsWithOverride({});
    expect((await deps.settings()).base_url).toEqual({ value: BASE_URL, source: 'environment' });
    expect(started).toEqual([]);
  });
});
