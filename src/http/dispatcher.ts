// The undici dispatcher of the process: the proxies of the environment (HTTPS_PROXY, HTTP_PROXY, NO_PROXY, in
// either case, as curl reads them) for API, token and signed-URL requests alike, and the trusted roots plus an
// organization's own CA bundle (--ca-file, FLEETCTL_CA_FILE, ca_file).
import { nodeCrypto } from '../shared/node-crypto.js';
import { readFileSync } from 'node:fs';
import type { Dispatcher } from 'undici';
import type { Undici } from '../shared/undici.js';
import { UsageError } from '../errors.js';
import { quoteInput } from '../shared/terminal-text.js';
import { readTextFile } from '../io/read-input.js';

export interface ProxyEnvironment {
  httpProxy: string;
  httpsProxy: string;
  noProxy: string;
}

export interface NetworkSettings {
  proxy: ProxyEnvironment;
  /** PEM certificates trusted on top of the usual roots. */
  extraCa?: string[];
}

/** The lower-case name wins, as with curl; an empty value means none. */
export function proxyEnvironment(env: NodeJS.ProcessEnv): ProxyEnvironment {
  const read = (name: string) => env[name.toLowerCase()] ?? env[name.toUpperCase()] ?? '';
  return { httpProxy: read('http_proxy'), httpsProxy: read('https_proxy'), noProxy: read('no_proxy') };
}

/** No proxy at all: what the embedded sandbox on loopback needs, whatever the environment says. */
export const NO_PROXY: ProxyEnvironment = { httpProxy: '', httpsProxy: '', noProxy: '' };

export function hasProxy(proxy: ProxyEnvironment): boolean {
  return proxy.httpProxy !== '' || proxy.httpsProxy !== '';
}

/** A proxy URL fit for a message or a trace: user name and password never shown. */
export function proxyForDisplay(proxyUrl: string): string {
  if (!URL.canParse(proxyUrl)) return '(a proxy URL that cannot be parsed)';
  const url = new URL(proxyUrl);
  const hidden = url.username || url.password ? '***@' : '';
  return `${url.protocol}//${hidden}${url.host}`;
}

export function describeProxies(proxy: ProxyEnvironment): string {
  const parts = [
    proxy.httpsProxy && `https via ${proxyForDisplay(proxy.httpsProxy)}`,
    proxy.httpProxy && `http${proxy.httpsProxy ? '' : ' and https'} via ${proxyForDisplay(proxy.httpProxy)}`,
    proxy.noProxy && `direct for NO_PROXY ${proxy.noProxy}`,
  ].filter(Boolean);
  return parts.join('; ');
}

export async function createDispatcher(undici: Undici, settings: NetworkSettings): Promise<Dispatcher> {
  const ca = settings.extraCa && settings.extraCa.length > 0 ? [...defaultRoots(), ...settings.extraCa] : undefined;
  const pool = { keepAliveTimeout: 10_000, connections: 64 };
  if (!hasProxy(settings.proxy)) return new undici.Agent({ ...pool, connect: ca ? { ca } : undefined });
  for (const value of [settings.proxy.httpProxy, settings.proxy.httpsProxy]) {
    if (value && !/^https?:\/\//i.test(value)) {
      throw new UsageError(`the proxy ${proxyForDisplay(value)} is not an http:// or https:// URL`, 'set HTTPS_PROXY / HTTP_PROXY to a URL such as http://proxy.example.com:3128');
    }
  }
  // Through a proxy the TLS session with the server runs inside the CONNECT tunnel: requestTls carries the roots
  // there, proxyTls to an https:// proxy, connect to the hosts NO_PROXY sends direct.
  const trust = ca ? { ca } : undefined;
  const EnvHttpProxyAgent = await undici.loadEnvHttpProxyAgent();
  return new EnvHttpProxyAgent({ ...pool, ...settings.proxy, connect: trust, requestTls: trust, proxyTls: trust });
}

/**
 * The roots Node trusts by default (its bundled ones and NODE_EXTRA_CA_CERTS): giving `ca` replaces them, and
 * the CA bundle must add to them. tls.getCACertificates exists from Node 22.15; before it, the same set is
 * rebuilt from its two parts.
 */
function defaultRoots(): string[] {
  // loaded here, not with the module: node:tls takes ~10 ms to load, and plain-http requests never need it
  const tls = process.getBuiltinModule('node:tls');
  const modern = (tls as { getCACertificates?: (type: 'default') => string[] }).getCACertificates;
  if (modern) return modern('default');
  const extraFile = process.env.NODE_EXTRA_CA_CERTS;
  let extra: string[] = [];
  try {
    if (extraFile) extra = pemCertificates(readFileSync(extraFile, 'utf8'));
  } catch {
    // Node warns about an unreadable NODE_EXTRA_CA_CERTS itself, at start
  }
  return [...tls.rootCertificates, ...extra];
}

/** A system bundle of every public authority is about 200 kB: 16 MiB is no bundle. */
const MAX_CA_BUNDLE_BYTES = 16 * 1024 * 1024;

/** Reads a PEM bundle; a file that cannot be read or holds no certificate is refused with its name and origin. */
export async function readCaBundle(file: string, origin: string): Promise<string[]> {
  // bounded, and a regular file or a pipe only: a device (/dev/urandom, /dev/zero) would be read until memory ran out
  const text = await readTextFile(file, `the CA bundle ${quoteInput(file, 200)} (${origin})`, { maxBytes: MAX_CA_BUNDLE_BYTES });
  const certificates = pemCertificates(text);
  if (certificates.length === 0) {
    throw new UsageError(`the CA bundle ${quoteInput(file, 200)} (${origin}) holds no PEM certificate`, 'it should hold one or more "-----BEGIN CERTIFICATE-----" blocks');
  }
  const { X509Certificate } = nodeCrypto();
  certificates.forEach((pem, index) => {
    try {
      new X509Certificate(pem);
    } catch {
      throw new UsageError(`certificate ${index + 1} of the CA bundle ${quoteInput(file, 200)} (${origin}) cannot be read`, 'check that the file is a PEM bundle, not DER or a private key');
    }
  });
  return certificates;
}

function pemCertificates(text: string): string[] {
  return text.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
}
