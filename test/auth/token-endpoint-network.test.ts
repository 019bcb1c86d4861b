// Real sockets, no stubs: each way a token endpoint can fail to answer is exit 9 naming the endpoint; only the
// issuer refusing the client is exit 3.
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ciEnv, runCli, tempConfigDir } from '../support/cli.js';
import { CLIENT_ID, CLIENT_SECRET } from '../support/mock-http.js';
import { FakeClock } from '../support/fake-clock.js';
import { sandboxCertificate } from '../../src/sandbox/tls-certificate.js';

const servers: net.Server[] = [];
afterEach(async () => {
  for (const server of servers) if (server instanceof http.Server || server instanceof https.Server) server.closeAllConnections();
  await Promise.all(servers.splice(0).map((server) => new Promise((done) => server.close(done))));
});

async function listen<T extends net.Server>(server: T): Promise<number> {
  servers.push(server);
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return (server.address() as AddressInfo).port;
}

/** A port nothing listens on: bound once, then closed. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  await new Promise((done) => server.close(done));
  return port;
}

async function tokenFrom(authUrl: string, extra: string[] = []) {
  const env = ciEnv(tempConfigDir(), { FLEETCTL_AUTH_URL: authUrl });
  return runCli(['auth', 'token', '--scope', 'devices_read', ...extra], { env, clock: new FakeClock() });
}

function expectOneError(stderr: string, ...parts: string[]): void {
  const errors = stderr.split('\n').filter((line) => line.startsWith('Error:'));
  expect(errors).toHaveLength(1);
  for (const part of parts) expect(errors[0]).toContain(part);
  expect(stderr).not.toContain(CLIENT_SECRET);
  expect(stderr).not.toMatch(/^\s+at /m);
}

describe('a token endpoint that does not answer: exit 9, naming the endpoint', () => {
  it('connection refused (retried first, as the token POST is safe to repeat)', async () => {
    const authUrl = `http://127.0.0.1:${await closedPort()}`;
    const result = await tokenFrom(authUrl);
    expect(result.code).toBe(9);
    expectOneError(result.stderr, `${authUrl}/connect/token`, 'connection refused', 'ECONNREFUSED', `"${CLIENT_ID}"`);
    expect(result.stderr).toContain('Hint: check the URL and port');
  });

  it('DNS failure', async () => {
    const result = await tokenFrom('https://fleet-issuer.invalid');
    expect(result.code).toBe(9);
    expectOneError(result.stderr, 'https://fleet-issuer.invalid/connect/token', 'DNS failure');
  });

  it('TLS failure (a plain-http server behind an https URL)', async () => {
    const port = await listen(http.createServer((_req, res) => res.end('plain')));
    const result = await tokenFrom(`https://127.0.0.1:${port}`);
    expect(result.code).toBe(9);
    expectOneError(result.stderr, `https://127.0.0.1:${port}/connect/token`, 'TLS failure');
  });

  it('TLS failure (a certificate nobody vouches for), not retried: it would fail the same way', async () => {
    const port = await listen(https.createServer(await sandboxCertificate('127.0.0.1'), (_req, res) => res.end('{}')));
    const clock = new FakeClock();
    const env = ciEnv(tempConfigDir(), { FLEETCTL_AUTH_URL: `https://127.0.0.1:${port}` });
    const result = await runCli(['auth', 'token', '--scope', 'devices_read'], { env, clock });
    expect(result.code).toBe(9);
    expectOneError(result.stderr, `https://127.0.0.1:${port}/connect/token`, 'TLS failure, the server certificate is not trusted (DEPTH_ZERO_SELF_SIGNED_CERT)');
    expect(result.stderr).toContain('Hint: if your organization uses its own certificate authority, pass its PEM bundle with --ca-file');
    expect(clock.sleeps).toEqual([]);
  });

  it('timeout (the server accepts the request and never answers)', async () => {
    const port = await listen(http.createServer(() => undefined));
    const result = await tokenFrom(`http://127.0.0.1:${port}`, ['--timeout', '0.3']);
    expect(result.code).toBe(9);
    expectOneError(result.stderr, `http://127.0.0.1:${port}/connect/token`, 'timed out after 0.3 s');
  });
});

describe('the issuer refusing the client: exit 3', () => {
  it('invalid_client from a real server', async () => {
    const port = await listen(
      http.createServer((_req, res) => {
        res.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'invalid_client' }));
      }),
    );
    const result = await tokenFrom(`http://127.0.0.1:${port}`);
    expect(result.code).toBe(3);
    expectOneError(result.stderr, `http://127.0.0.1:${port}/connect/token`, 'invalid_client');
  });
});
