// The operations of the OpenAPI document a server serves at {base_url}/openapi/v1.json, for `fleetctl api`:
// fetched without a token, cached in the config folder per base URL, and the bundled document as the fallback.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { OPERATIONS } from '../openapi/operations.js';
import type { Clock } from '../io/clock.js';
import { writeFileAtomically } from '../io/atomic-file.js';
import type { Transport } from './transport.js';

export interface ServedOperation {
  operationId: string;
  method: string;
  path: string;
  scope: string;
}

export interface OperationCatalog {
  operations: ServedOperation[];
  /** Where the list comes from, for messages: the served document, the cache, or the bundled copy. */
  source: 'served' | 'cache' | 'bundled';
  /** Set when the served document could not be used and an older copy stands in. */
  warning?: string;
}

/** A cached copy is used without asking the server again for this long. */
export const CACHE_TTL_MS = 60 * 60 * 1000;
const HTTP_METHODS = ['get', 'put', 'post', 'patch', 'delete'];

interface CacheFile {
  base_url: string;
  fetched_at: string;
  operations: ServedOperation[];
}

export function cacheFileFor(configDir: string, baseUrl: string): string {
  const key = createHash('sha256').update(baseUrl).digest('hex').slice(0, 16);
  return path.join(configDir, 'openapi-cache', `${key}.json`);
}

/**
 * The served operations: from a fresh cache, else fetched (and cached), else a stale cache, else the bundled
 * document, with a warning saying which. `refresh` skips a fresh cache.
 */
export async function loadOperationCatalog(deps: { transport: Transport; clock: Clock; configDir: string }, baseUrl: string, opts: { refresh?: boolean } = {}): Promise<OperationCatalog> {
  // A loopback server (a sandbox, often on an ephemeral port) is asked every time: cheap, and no cache piles up.
  const file = isLoopback(baseUrl) ? undefined : cacheFileFor(deps.configDir, baseUrl);
  const cached = file ? await readCache(file, baseUrl) : undefined;
  const now = deps.clock.now().getTime();
  if (cached && !opts.refresh && now - Date.parse(cached.fetched_at) < CACHE_TTL_MS) return { operations: cached.operations, source: 'cache' };
  const url = `${baseUrl}/openapi/v1.json`;
  let reason: string;
  try {
    const answer = await deps.transport.send({ method: 'GET', url, headers: { accept: 'application/json' } });
    if (answer.status !== 200) throw new Error(`HTTP ${answer.status}`);
    const operations = operationsOfDocument(JSON.parse(answer.text) as unknown);
    if (operations.length === 0) throw new Error('it describes no operations');
    const cache: CacheFile = { base_url: baseUrl, fetched_at: new Date(now).toISOString(), operations };
    if (file) await writeFileAtomically(file, `${JSON.stringify(cache)}\n`).catch(() => undefined);
    return { operations, source: 'served' };
  } catch (error) {
    reason = (error as Error).message;
  }
  if (cached) {
    return { operations: cached.operations, source: 'cache', warning: `could not refresh the API document from ${url} (${reason}); using the copy fetched at ${cached.fetched_at}` };
  }
  return { operations: bundledOperations(), source: 'bundled', warning: `could not read the API document from ${url} (${reason}); using the one bundled with fleetctl` };
}

export function isLoopback(baseUrl: string): boolean {
  if (!URL.canParse(baseUrl)) return false;
  const host = new URL(baseUrl).hostname;
  return host === 'localhost' || host === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

export function bundledOperations(): ServedOperation[] {
  return OPERATIONS.map(({ operationId, method, path: template, scope }) => ({ operationId, method, path: template, scope }));
}

/** Every operation with one scope (spec: every endpoint requires exactly one scope); others are left out. */
export function operationsOfDocument(doc: unknown): ServedOperation[] {
  const paths = (doc as { paths?: Record<string, Record<string, unknown>> } | null)?.paths;
  if (!paths || typeof paths !== 'object') throw new Error('it is not an OpenAPI document (no paths)');
  const operations: ServedOperation[] = [];
  for (const [template, item] of Object.entries(paths)) {
    for (const method of HTTP_METHODS) {
      const op = item?.[method] as { operationId?: unknown; security?: Record<string, unknown>[] } | undefined;
      if (!op) continue;
      const scopes = (op.security ?? []).flatMap((requirement) => Object.values(requirement ?? {}).flat());
      if (scopes.length !== 1 || typeof scopes[0] !== 'string') continue;
      const operationId = typeof op.operationId === 'string' ? op.operationId : `${method.toUpperCase()} ${template}`;
      operations.push({ operationId, method: method.toUpperCase(), path: template, scope: scopes[0] });
    }
  }
  return operations;
}

async function readCache(file: string, baseUrl: string): Promise<CacheFile | undefined> {
  try {
    const data = JSON.parse(await readFile(file, 'utf8')) as CacheFile;
    if (data.base_url !== baseUrl || !Array.isArray(data.operations) || Number.isNaN(Date.parse(data.fetched_at))) return undefined;
    return data;
  } catch {
    return undefined;
  }
}
