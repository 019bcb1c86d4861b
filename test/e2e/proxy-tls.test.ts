// Real networks end to end: the built CLI talks to a TLS sandbox (certificate made at start, trusted with
// --ca-file) through a real HTTP CONNECT proxy that asks for credentials. The proxy sees the CONNECTs, and no
// output or --debug trace shows a proxy credential.
import { createServer, type IncomingMessage } from 'node:http';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createProxy, type ProxyServer } from 'proxy';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandboxCertificate } from '../../src/sandbox/tls-certificate.js';
import { startHarness, type CliResult, type SandboxHarness } from './harness.js';

const PROXY_USER = 'proxy-user';
const PROXY_PASSWORD = 'pr0xy-pa55word';
const BASIC = Buffer.from(`${PROXY_USER}:${PROXY_PASSWORD}`).toString('base64');

let h: SandboxHarness;
let proxy: ProxyServer;
let proxyUrl: string;
let caFile: string;
let work: string;
let sandboxHost: string;
/** The CONNECT requests the proxy answered, in order: target and whether the credentials were right. */
const connects: { target: string; authorized: boolean }[] = [];

beforeAll(async () => {
  work = mkdtempSync(path.join(os.tmpdir(), 'fleetctl-proxy-'));
  const tls = await sandboxCertificate('127.0.0.1');
  caFile = path.join(work, 'sandbox-ca.pem');
  writeFileSync(caFile, tls.cert);
  h = await startHarness({ tls });
  sandboxHost = new URL(h.sandbox.baseUrl).host;
  proxy = createProxy(createServer());
  proxy.authenticate = (req: IncomingMessage) => {
    const authorized = req.headers['proxy-authorization'] === `Basic ${BASIC}`;
    if (req.method === 'CONNECT') connects.push({ target: req.url ?? '', authorized });
    return authorized;
  };
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
}, 60_000);

afterAll(async () => {
  await h?.close();
  proxy?.closeAllConnections();
  await new Promise((resolve) => proxy?.close(resolve));
  rmSync(work, { recursive: true, force: true });
});

const withCredentials = () => proxyUrl.replace('http://', `http://${PROXY_USER}:${encodeURIComponent(PROXY_PASSWORD)}@`);

function expectNoProxyCredential(result: CliResult): void {
  const everything = result.stdout + result.stderr;
  expect(everything).not.toContain(PROXY_PASSWORD);
  expect(everything).not.toContain(BASIC);
}

describe('through an HTTP CONNECT proxy to a TLS sandbox trusted with --ca-file', { timeout: 60_000 }, () => {
  it('API and token requests go through the proxy (HTTPS_PROXY), credentials never shown, even with --debug', async () => {
    const before = connects.length;
    const result = await h.cli(['devices', 'list', '--limit', '2', '-o', 'json', '--ca-file', caFile, '--debug'], { env: { HTTPS_PROXY: withCredentials() } });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toHaveLength(2);
    const seen = connects.slice(before);
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.every((c) => c.target === sandboxHost && c.authorized)).toBe(true);
    expect(result.stderr).toContain(`proxy: https via http://***@${new URL(proxyUrl).host}`);
    expectNoProxyCredential(result);
  });

  it('signed-URL downloads go through the proxy too (lower-case https_proxy)', async () => {
    const listed = await h.cli(['devices', 'list', '--all', '--limit', '500', '-o', 'ndjson', '--ca-file', caFile]);
    const devices = listed.stdout.trim().split('\n').map((line) => JSON.parse(line) as { hardware_id: string; last_seen_at: string | null });
    const dir = path.join(work, 'media');
    for (const device of devices.filter((d) => d.last_seen_at !== null)) {
      const media = await h.cli(['devices', 'media', device.hardware_id, '--limit', '1', '-o', 'json', '--ca-file', caFile]);
      const items = JSON.parse(media.stdout) as { id: string }[];
      if (items.length === 0) continue;
      const before = connects.length;
      const result = await h.cli(['devices', 'media', 'download', device.hardware_id, items[0]!.id, '--dir', dir, '-o', 'json', '--ca-file', caFile], {
        env: { https_proxy: withCredentials() },
      });
      expect(result.code).toBe(0);
      expect(JSON.parse(result.stdout)).toHaveLength(1);
      expect(connects.length).toBeGreaterThan(before);
      expectNoProxyCredential(result);
      return;
    }
    throw new Error('no device of the sandbox has media');
  });

  it('NO_PROXY sends a host direct: the proxy sees nothing', async () => {
    const before = connects.length;
    const result = await h.cli(['devices', 'list', '--limit', '1', '--ca-file', caFile], { env: { HTTPS_PROXY: withCredentials(), NO_PROXY: 'localhost,127.0.0.1' } });
    expect(result.code).toBe(0);
    expect(connects.length).toBe(before);
  });

  it('FLEETCTL_CA_FILE and the ca_file profile setting trust the bundle as --ca-file does', async () => {
    const fromEnv = await h.cli(['devices', 'list', '--limit', '1'], { env: { HTTPS_PROXY: withCredentials(), FLEETCTL_CA_FILE: caFile } });
    expect(fromEnv.code).toBe(0);
    const set = await h.cli(['config', 'set', 'ca_file', caFile]);
    expect(set.code).toBe(0);
    try {
      const fromProfile = await h.cli(['devices', 'list', '--limit', '1'], { env: { HTTPS_PROXY: withCredentials() } });
      expect(fromProfile.code).toBe(0);
    } finally {
      await h.cli(['config', 'unset', 'ca_file']);
    }
  });

  it('without the CA bundle: exit 9, a TLS failure naming the endpoint and --ca-file, tried once', async () => {
    const result = await h.cli(['devices', 'list', '--limit', '1', '--debug'], { env: { HTTPS_PROXY: withCredentials() } });
    expect(result.code).toBe(9);
    // the token is cached from the runs above: the API request is the one that fails
    expect(result.stderr).toContain(`Error: could not reach ${h.sandbox.baseUrl}/v1/devices: TLS failure, the server certificate is not trusted`);
    expect(result.stderr).toContain('--ca-file');
    expect(result.stderr).not.toContain('retrying');
    expectNoProxyCredential(result);
  });

  it('wrong proxy credentials: exit 9, the proxy refusal said, the credentials not', async () => {
    const wrong = proxyUrl.replace('http://', `http://${PROXY_USER}:not-the-password@`);
    const result = await h.cli(['devices', 'list', '--limit', '1', '--ca-file', caFile, '--debug'], { env: { HTTPS_PROXY: wrong } });
    expect(result.code).toBe(9);
    expect(result.stderr).toContain('the proxy refused to open a tunnel (HTTP 407)');
    expect(result.stderr).not.toContain('not-the-password');
  });

  it('--sandbox never goes through a proxy, whatever the environment says', async () => {
    const dead = `http://127.0.0.1:9/`;
    const result = await h.cli(['--sandbox', 'devices', 'list', '--limit', '1', '-o', 'json'], { env: { HTTP_PROXY: dead, HTTPS_PROXY: dead, FLEETCTL_BASE_URL: undefined } });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toHaveLength(1);
  });
});
