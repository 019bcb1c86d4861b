// sandbox --tls: HTTPS with a certificate made at start, its PEM printed as a path, gone once the sandbox stops.
import { existsSync, readFileSync } from 'node:fs';
import { X509Certificate } from 'node:crypto';
import { Agent, request } from 'undici';
import { describe, expect, it } from 'vitest';
import { sandboxOptionsFrom, sandboxStartRun } from '../../../src/commands/sandbox/start.js';
import type { Deps } from '../../../src/factory.js';
import { fakeDeps } from '../fake-deps.js';

async function started(json: boolean) {
  const f = fakeDeps({ tty: false });
  const controller = new AbortController();
  const done = sandboxStartRun({ ...f.deps, signal: controller.signal } as Deps, sandboxOptionsFrom({ host: '127.0.0.1', port: '0', devices: '5', tls: true }), json);
  for (let i = 0; i < 300 && !f.io.stderr().includes('Sandbox ready'); i++) await new Promise((r) => setTimeout(r, 20));
  return { f, stop: async () => (controller.abort(), await done) };
}

describe('sandbox --tls', () => {
  it('serves HTTPS trusted by the printed certificate alone; the file is removed at stop', { timeout: 20_000 }, async () => {
    const { f, stop } = await started(true);
    const facts = JSON.parse(f.io.stdout()) as { base_url: string; auth_url: string; ca_file: string };
    expect(facts.base_url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    expect(facts.auth_url).toBe(facts.base_url);
    const pem = readFileSync(facts.ca_file, 'utf8');
    const certificate = new X509Certificate(pem);
    expect(certificate.checkIP('127.0.0.1')).toBe('127.0.0.1');
    expect(certificate.checkHost('localhost')).toBe('localhost');
    const trusting = new Agent({ connect: { ca: pem } });
    const answer = await request(`${facts.base_url}/openapi/v1.json`, { dispatcher: trusting });
    expect(answer.statusCode).toBe(200);
    await answer.body.json();
    await expect(request(`${facts.base_url}/openapi/v1.json`)).rejects.toMatchObject({ code: 'DEPTH_ZERO_SELF_SIGNED_CERT' });
    await trusting.close();
    await stop();
    expect(existsSync(facts.ca_file)).toBe(false);
  });

  it('the readable start-up names the certificate and the export line to trust it', { timeout: 20_000 }, async () => {
    const { f, stop } = await started(false);
    await stop();
    const file = /TLS certificate: (\S+) \(trust it with --ca-file or FLEETCTL_CA_FILE\)/.exec(f.io.stdout())?.[1];
    expect(file).toMatch(/sandbox-ca\.pem$/);
    expect(f.io.stdout()).toContain(`  export FLEETCTL_CA_FILE=${file}\n`);
    expect(f.io.stdout()).toMatch(/export FLEETCTL_BASE_URL=https:\/\//);
    expect(f.io.stdout() + f.io.stderr()).not.toContain('PRIVATE KEY');
  });
});
