// The OpenAPI document a service serves at {base_url}/openapi/v1.json (the spec promises it): fetched without a
// token, cached whole in the config folder per base URL, and the bundled document only when none is served. It is
// the source of record shapes and request rules for that service (`api`, columns, request checks). What is handed
// out is the document composed (composed-document.ts: $refs followed, compositions merged, nullable written one way); the
// cache keeps it as served.
import { nodeCrypto } from '../shared/node-crypto.js';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Clock } from '../io/clock.js';
import { writeFileAtomically } from '../io/atomic-file.js';
import { isLoopbackUrl } from '../shared/loopback.js';
import { cutText, safeText } from '../shared/terminal-text.js';
import { adoptComposed, COMPOSITION_RULES_VERSION } from '../openapi/composed-document.js';
import { composeDocument, HTTP_METHODS, isOpenApiDoc, type OpenApiDoc } from '../openapi/document-shapes.js';
import type { Transport } from '../http/transport.js';

export type { OpenApiDoc } from '../openapi/document-shapes.js';

export interface ServedDocument {
  document: OpenApiDoc;
  /** Where it comes from, for messages: the service itself, the cache of an earlier answer, or the bundled copy. */
  source: 'served' | 'cache' | 'bundled';
  /** Set when the served document could not be used and an older copy (or the bundled one) stands in. */
  warning?: string;
}

export interface ServedDocumentDeps {
  transport: Transport;
  clock: Clock;
  configDir: string;
}

/** A cached copy is used without asking the server again for this long. */
export const CACHE_TTL_MS = 60 * 60 * 1000;

interface CacheFile {
  base_url: string;
  fetched_at: string;
  document: OpenApiDoc;
}

export function cacheFileFor(configDir: string, baseUrl: string): string {
  const key = nodeCrypto().createHash('sha256').update(baseUrl).digest('hex').slice(0, 16);
  return path.join(configDir, 'openapi-cache', `${key}.json`);
}

/**
 * The document for a base URL: from a fresh cache, else fetched (and cached), else a stale cache, else the
 * bundled document, with a warning saying which. `refresh` skips a fresh cache.
 */
export async function loadServedDocument(deps: ServedDocumentDeps, baseUrl: string, opts: { refresh?: boolean } = {}): Promise<ServedDocument> {
  // A loopback server (a sandbox, often on an ephemeral port) is asked every time: cheap, and no cache piles up.
  const file = isLoopbackUrl(baseUrl) ? undefined : cacheFileFor(deps.configDir, baseUrl);
  const cached = file ? await readCache(file, baseUrl, deps.configDir) : undefined;
  const now = deps.clock.now().getTime();
  if (cached && !opts.refresh && now - Date.parse(cached.fetched_at) < CACHE_TTL_MS) return { document: cached.composed, source: 'cache' };
  const url = `${baseUrl.replace(/\/+$/, '')}/openapi/v1.json`;
  // a base URL is typed by people: what goes to the terminal is escaped and cut
  const shown = cutText(safeText(url), 200);
  let reason: string;
  try {
    const answer = await deps.transport.send({ method: 'GET', url, headers: { accept: 'application/json' } });
    if (answer.status !== 200) throw new Error(`HTTP ${answer.status}`);
    const document = parseJson(answer.text);
    if (!isOpenApiDoc(document)) throw new Error('it is not an OpenAPI document (no paths)');
    // its path items may be $refs: what it offers is read once they are followed
    const composed = withOperations(await composedCopy(document, deps.configDir));
    const cache: CacheFile = { base_url: baseUrl, fetched_at: new Date(now).toISOString(), document };
    // a cache that cannot be written only costs a fetch next time
    if (file) await writeFileAtomically(file, `${JSON.stringify(cache)}\n`).catch(() => undefined);
    return { document: composed, source: 'served' };
  } catch (error) {
    reason = cutText(safeText((error as Error).message), 300);
  }
  if (cached) {
    return { document: cached.composed, source: 'cache', warning: `could not refresh the API document from ${shown} (${reason}); using the copy fetched at ${cached.fetched_at}` };
  }
  return { document: await bundledDocument(deps.configDir), source: 'bundled', warning: `could not read the API document from ${shown} (${reason}); using the one bundled with fleetctl` };
}

/** The document bundled with fleetctl (src/openapi/v1.json), composed (its copy in configDir when given), loaded on first use. */
export async function bundledDocument(configDir?: string): Promise<OpenApiDoc> {
  return composedCopy((await import('../openapi/v1.json', { with: { type: 'json' } })).default as unknown as OpenApiDoc, configDir);
}

/**
 * The document composed, through a copy kept in the config folder per content: composing costs some hundreds of
 * milliseconds (bench/latency.mjs), reading the copy a few. Without a folder, or when the copy cannot be read or
 * written, it is composed again.
 */
async function composedCopy(document: OpenApiDoc, configDir: string | undefined): Promise<OpenApiDoc> {
  const key = nodeCrypto().createHash('sha256').update(`${COMPOSITION_RULES_VERSION}\n${JSON.stringify(document)}`).digest('hex').slice(0, 16);
  // the bundled document (which the sandbox serves) was composed when fleetctl was built
  const prebuilt = await prebuiltComposed();
  if (prebuilt?.key === key && isOpenApiDoc(prebuilt.document)) return adoptComposed(prebuilt.document);
  if (!configDir) return composeDocument(document);
  const file = path.join(configDir, 'openapi-cache', `composed-${key}.json`);
  try {
    const copy = JSON.parse(await readFile(file, 'utf8')) as unknown;
    if (isOpenApiDoc(copy)) return adoptComposed(copy);
  } catch {
    // no copy yet: composed below
  }
  const composed = await composeDocument(document);
  await writeFileAtomically(file, `${JSON.stringify(composed)}\n`).catch(() => undefined);
  return composed;
}

/**
 * The bundled document as the build composed it (src/build/gen-composed.mjs), with the key of the document it was
 * composed from; undefined where the build did not write it (then it is composed at run time, as any other).
 */
async function prebuiltComposed(): Promise<{ key: string; document: unknown } | undefined> {
  try {
    const { default: prebuilt } = await import('../openapi/v1.composed.gen.json', { with: { type: 'json' } });
    return prebuilt as unknown as { key: string; document: unknown };
  } catch {
    return undefined;
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new Error('it is not JSON');
  }
}

/** A composed document worth using: at least one of its paths has an operation. */
function withOperations(composed: OpenApiDoc): OpenApiDoc {
  const hasOperation = Object.values(composed.paths).some((item) => HTTP_METHODS.some((method) => item?.[method] !== undefined));
  if (!hasOperation) throw new Error('it describes no operations');
  return composed;
}

async function readCache(file: string, baseUrl: string, configDir: string): Promise<(CacheFile & { composed: OpenApiDoc }) | undefined> {
  try {
    const data = JSON.parse(await readFile(file, 'utf8')) as CacheFile;
    // a copy written by an older fleetctl (operations only) is no document: fetched again
    if (data.base_url !== baseUrl || !isOpenApiDoc(data.document) || Number.isNaN(Date.parse(data.fetched_at))) return undefined;
    return { ...data, composed: await composedCopy(data.document, configDir) };
  } catch {
    return undefined;
  }
}
