// Proxies from the environment and the CA bundle: what the dispatcher of the process is built from.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as undici from 'undici';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createDispatcher, describeProxies, proxyEnvironment, proxyForDisplay, readCaBundle } from '../../src/http/dispatcher.js';
import { sandboxCertificate } from '../../src/sandbox/tls-certificate.js';
import { ciEnv, runCli } from '../support/cli.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'fleetctl-ca-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('proxyEnvironment', () => {
  it('reads either case, the lower-case name winning as with curl; nothing set is no proxy', () => {
    expect(proxyEnvironment({ HTTPS_PROXY: 'http://upper:3128', NO_PROXY: '.corp' })).toEqual({ httpProxy: '', httpsProxy: 'http://upper:3128', noProxy: '.corp' });
    expect(proxyEnvironment({ https_proxy: 'http://lower:3128', HTTPS_PROXY: 'http://upper:3128', http_proxy: 'http://h:8080' })).toEqual({
      httpProxy: 'http://h:8080',
      httpsProxy: 'http://lower:3128',
      noProxy: '',
    });
    expect(proxyEnvironment({})).toEqual({ httpProxy: '', httpsProxy: '', noProxy: '' });
  });

  it('shows proxies without their credentials', () => {
    expect(proxyForDisplay('http://user:s3cret@proxy.corp:3128')).toBe('http://***@proxy.corp:3128');
    expect(proxyForDisplay('http://proxy.corp:3128/')).toBe('http://proxy.corp:3128');
    expect(describeProxies({ httpProxy: 'http://a:b@p:1', httpsProxy: '', noProxy: 'localhost' })).toBe('http and https via http://***@p:1; direct for NO_PROXY localhost');
  });

  it('a proxy that is not an http(s) URL is a usage error that does not show it whole', async () => {
    const agents = { Agent: undici.Agent, loadEnvHttpProxyAgent: async () => undici.EnvHttpProxyAgent };
    const build = () => createDispatcher(agents, { proxy: { httpProxy: '', httpsProxy: 'user:s3cret@proxy:3128', noProxy: '' } });
    await expect(build()).rejects.toThrow(expect.objectContaining({ exitCode: 2 }));
    await expect(build()).rejects.toThrow(/is not an http:\/\/ or https:\/\/ URL/);
    await expect(build()).rejects.not.toThrow(/s3cret/);
  });
});

describe('readCaBundle', () => {
  it('returns every certificate of a PEM bundle', async () => {
    const [a, b] = await Promise.all([sandboxCertificate('127.0.0.1'), sandboxCertificate('localhost')]);
    const file = path.join(dir, 'bundle.pem');
    writeFileSync(file, `# our CAs\n${a.cert}\n${b.cert}`);
    expect(await readCaBundle(file, '--ca-file')).toEqual([a.cert.trim(), b.cert.trim()]);
  });

  it.each([
    ['a missing file', 'missing.pem', undefined, /^cannot read the CA bundle ".*missing\.pem" \(--ca-file\): no such file$/],
    ['a file without a certificate', 'key.pem', '-----BEGIN PRIVATE KEY-----\nabc\n-----END PRIVATE KEY-----\n', /holds no PEM certificate/],
    ['a damaged certificate', 'bad.pem', '-----BEGIN CERTIFICATE-----\nbm90IGEgY2VydA==\n-----END CERTIFICATE-----\n', /^certificate 1 of the CA bundle .* cannot be read$/],
  ])('refuses %s with a usage error naming it', async (_what, name, content, message) => {
    const file = path.join(dir, name);
    if (content !== undefined) writeFileSync(file, content);
    await expect(readCaBundle(file, '--ca-file')).rejects.toThrow(message);
  });

  // the fuzz suite's --ca-file /dev/urandom was read until the process ran out of memory
  it.each(['/dev/urandom', '/dev/zero'])('refuses a device that never ends (%s) without reading it', async (device) => {
    await expect(readCaBundle(device, '--ca-file')).rejects.toThrow(/^cannot read the CA bundle ".*" \(--ca-file\): it is a .*not a regular file$/);
  });

  it('a bad --ca-file stops a command before any request (exit 2), naming where it came from', async () => {
    const missing = path.join(dir, 'nope.pem');
    const flag = await runCli(['devices', 'list', '--ca-file', missing], { env: ciEnv(dir) });
    expect(flag.code).toBe(2);
    expect(flag.stderr).toContain(`Error: cannot read the CA bundle "${missing}" (--ca-file): no such file`);
    const env = await runCli(['devices', 'list'], { env: ciEnv(dir, { FLEETCTL_CA_FILE: missing }) });
    expect(env.stderr).toContain('(FLEETCTL_CA_FILE)');
    const set = await runCli(['config', 'set', 'ca_file', missing], { env: { FLEETCTL_CONFIG_DIR: dir } });
    expect(set.code).toBe(2);
    expect(set.stderr).toContain(`cannot read the CA bundle "${missing}" (ca_file)`);
  });
});
