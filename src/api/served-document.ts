// The OpenAPI document a service serves at {base_url}/openapi/v1.json (the spec promises it): fetched without a
// token, cached whole in the config folder per base URL, and the bundled document only when none is served. It is
// the source of record shapes and request rules for that service (`api`, columns, request checks).
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Clock } from '../io/clock.js';
import { writeFileAtomically } from '../io/atomic-file.js';
import { isLoopbackUrl } from '../shared/loopback.js';
import { cutText, safeText } from '../shared/terminal-text.js';
import { HTTP_METHODS, isOpenApiDoc, type OpenApiDoc } from '../openapi/document-shapes.js';
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
  const key = createHash('sha256').update(baseUrl).digest('hex').slice(0, 16);
  return path.join(configDir, 'openapi-cache', `${key}.json`);
}

/**
 * The document for a base URL: from a fresh cache, else fetched (and cached), else a stale cache, else the
 * bundled document, with a warning saying which. `refresh` skips a fresh cache.
 */
export async function loadServedDocument(deps: ServedDocumentDeps, baseUrl: string, opts: { refresh?: boolean } = {}): Promise<ServedDocument> {
  // A loopback server (a sandbox, often on an ephemeral port) is asked every time: cheap, and no cache piles up.
  const file = isLoopbackUrl(baseUrl) ? undefined : cacheFileFor(deps.configDir, baseUrl);
  const cached = file ? await readCache(file, baseUrl) : undefined;
  const now = deps.clock.now().getTime();
  if (cached && !opts.refresh && now - Date.parse(cached.fetched_at) < CACHE_TTL_MS) return { document: cached.document, source: 'cache' };
  const url = `${baseUrl.replace(/\/+$/, '')}/openapi/v1.json`;
  // a base URL is typed by people: what goes to the terminal is escaped and cut
  const shown = cutText(safeText(url), 200);
  let reason: string;
  try {
    const answer = await deps.transport.send({ method: 'GET', url, headers: { accept: 'application/json' } });
    if (answer.status !== 200) throw new Error(`HTTP ${answer.status}`);
    const document = usableDocument(parseJson(answer.text));
    const cache: CacheFile = { base_url: baseUrl, fetched_at: new Date(now).toISOString(), document };
    // a cache that cannot be written only costs a fetch next time
    if (file) await writeFileAtomically(file, `${JSON.stringify(cache)}\n`).catch(() => undefined);
    return { document, source: 'served' };
  } catch (error) {
    reason = cutText(safeText((error as Error).message), 300);
  }
  if (cached) {
    return { document: cached.document, source: 'cache', warning: `could not refresh the API document from ${shown} (${reason}); using the copy fetched at ${cached.fetched_at}` };
  }
  return { document: await bundledDocument(), source: 'bundled', warning: `could not read the API document from ${shown} (${reason}); using the one bundled with fleetctl` };
}

/** The document bundled with fleetctl (src/openapi/v1.json), loaded on first use. */
export async function bundledDocument(): Promise<OpenApiDoc> {
  return (await import('../openapi/v1.json', { with: { type: 'json' } })).default as unknown as OpenApiDoc;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new Error('it is not JSON');
  }
}

/** A document worth using: it has paths, and at least one of them an operation. */
function usableDocument(value: unknown): OpenApiDoc {
  if (!isOpenApiDoc(value)) throw new Error('it is not an OpenAPI document (no paths)');
  const hasOperation = Object.values(value.paths).some((item) => HTTP_METHODS.some((method) => item?.[method] !== undefined));
  if (!hasOperation) throw new Error('it describes no operations');
  return value;
}

async function readCache(file: string, baseUrl: string): Promise<CacheFile | undefined> {
  try {
    const data = JSON.parse(await readFile(file, 'utf8')) as CacheFile;
    // a copy written by an older fleetctl (operations only) is no document: fetched again
    if (data.base_url !== baseUrl || !isOpenApiDoc(data.document) || Number.isNaN(Date.parse(data.fetched_at))) return undefined;
    return data;
  } catch {
    return undefined;
  }
}
