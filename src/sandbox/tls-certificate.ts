// `fleetctl sandbox --tls`: a certificate made at start for the addresses the sandbox answers on, so HTTPS, a
// private CA (--ca-file) and proxies can be tried end to end without any certificate at hand.
import type { RequestListener, Server, ServerOptions } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { isIP } from 'node:net';
import os from 'node:os';
import path from 'node:path';

export interface SandboxTls {
  /** PEM private key; never printed. */
  key: string;
  /** PEM certificate: self-signed, so it is its own certificate authority for --ca-file. */
  cert: string;
}

type ServerFactory = (options: ServerOptions, listener: RequestListener) => Server;

/** The plain HTTP server factory, or one serving the same handler over TLS (an https.Server is an http.Server). */
export function serverFor(tls: SandboxTls | undefined, plain: ServerFactory): ServerFactory {
  if (!tls) return plain;
  return (options, listener) => createHttpsServer({ ...options, ...tls }, listener);
}

const VALID_DAYS = 30;

export async function sandboxCertificate(host: string, now = new Date()): Promise<SandboxTls> {
  // CommonJS: bundled, its dynamic import has only a default export; under Node both forms exist.
  const loaded = (await import('selfsigned')) as typeof import('selfsigned') & { default?: typeof import('selfsigned') };
  const { generate } = loaded.default ?? loaded;
  const names = new Set(['localhost', '127.0.0.1', '::1', host]);
  const altNames = [...names]
    .filter((name) => name !== '0.0.0.0' && name !== '::')
    .map((name) => (isIP(name) ? { type: 7 as const, ip: name } : { type: 2 as const, value: name }));
  const pems = await generate([{ name: 'commonName', value: 'fleetctl sandbox' }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    notBeforeDate: new Date(now.getTime() - 60_000),
    notAfterDate: new Date(now.getTime() + VALID_DAYS * 86_400_000),
    extensions: [
      // a CA as well as a server certificate: OpenSSL then accepts it as a trust anchor given in `ca`
      { name: 'basicConstraints', cA: true, critical: true },
      { name: 'keyUsage', digitalSignature: true, keyCertSign: true, critical: true },
      { name: 'extKeyUsage', serverAuth: true },
      { name: 'subjectAltName', altNames },
    ],
  });
  return { key: pems.private, cert: pems.cert };
}

/** A certificate for `host`, its PEM written to a private temporary directory (removed by `remove`). */
export async function certificateOnDisk(host: string): Promise<{ tls: SandboxTls; file: string; remove(): Promise<void> }> {
  const tls = await sandboxCertificate(host);
  const directory = mkdtempSync(path.join(os.tmpdir(), 'fleetctl-sandbox-tls-'));
  const file = path.join(directory, 'sandbox-ca.pem');
  writeFileSync(file, tls.cert, { mode: 0o644 });
  return { tls, file, remove: () => rm(directory, { recursive: true, force: true }) };
}
