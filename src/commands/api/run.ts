// Sends what `fleetctl api` was given to the operation the document says it is, and prints the answer.
import type { Deps } from '../../factory.js';
import { recordedChange } from '../../ledger/recorder.js';
import { UsageError } from '../../errors.js';
import { paginate, type Page } from '../../api/paginate.js';
import { DEFAULT_LIMIT } from '../../shared/page-limits.js';
import { bundledOperations, operationCatalogOf, type OperationCatalog, type ServedOperation } from '../../api/served-operations.js';
import { loadServedDocument } from '../../api/served-document.js';
import { matchOperationIn } from '../../openapi/operations.js';
import { readJsonInput } from '../../io/read-input.js';
import { quoteInput } from '../../shared/terminal-text.js';
import type { Output } from '../../output/render.js';
import { renderPages, type PagesSource } from '../shared/paging.js';
import { API_METHODS, type ApiRequestOptions } from './request.js';

type ApiRunDeps = Pick<Deps, 'api' | 'output' | 'io' | 'transport' | 'clock' | 'configDir' | 'settings' | 'globals' | 'signal' | 'ledger'>;

export interface ApiRunOptions {
  request: ApiRequestOptions;
  refresh: boolean;
}

const READ_ONLY_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export async function apiRun(deps: ApiRunDeps, opts: ApiRunOptions): Promise<void> {
  const { request } = opts;
  const api = await deps.api();
  const catalog = await catalogFor(deps, api.baseUrl, opts.refresh);
  const op = operationFor(catalog, request.method, request.path);
  const body = request.input !== undefined ? await readJsonInput(request.input, deps.io.in, '--input', { signal: deps.signal }) : request.fields;
  const call = { method: request.method, path: request.path, scope: op.scope, headers: request.headers, body, signal: deps.signal };
  const output = outputOf(deps);
  if (!request.paginate) {
    const send = () => api.request({ ...call, query: request.query });
    // what may change the service (anything but GET, HEAD, OPTIONS) is recorded in the ledger, by operation and path
    const key = Object.entries(request.headers ?? {}).find(([name]) => name.toLowerCase() === 'idempotency-key')?.[1];
    const change = { command: 'api', target: `${request.method} ${request.path}`, outcome: 'answered', ...(key === undefined ? {} : { idempotencyKey: key }) };
    const answer = READ_ONLY_METHODS.has(request.method) ? await send() : await recordedChange(deps.ledger(), change, send);
    if (answer.body !== undefined) await output.object(answer.body);
    else deps.io.info(`HTTP ${answer.status}, no content.`);
    return;
  }
  const first = request.query.cursor?.[0];
  const limit = Number(request.query.limit?.[0] ?? DEFAULT_LIMIT);
  const pager = paginate(async (cursor, pageLimit) => {
    const answer = await api.request({ ...call, query: { ...request.query, cursor: cursor ?? first, limit: String(pageLimit) } });
    if (!isPage(answer.body)) throw new UsageError(`--paginate: ${request.method} ${request.path} does not answer with a list ({data, next_cursor, has_more})`);
    return answer.body;
  }, { limit, cursor: first, all: true });
  const items = await withColumns(pager, output);
  // where the pager stopped, for the line that says how to resume when a later page fails
  const source: PagesSource<unknown> = {
    [Symbol.asyncIterator]: () => items.records[Symbol.asyncIterator](),
    get nextCursor() {
      return pager.nextCursor;
    },
    get hasMore() {
      return pager.hasMore;
    },
  };
  await renderPages({ output, errorsAs: deps.output(), io: deps.io, configDir: deps.configDir }, source, items.columns, { limit, all: true }, '-f cursor=');
}

export async function apiListRun(deps: ApiRunDeps, opts: { refresh: boolean }): Promise<void> {
  const baseUrl = (await deps.settings()).base_url.value;
  if (!baseUrl) deps.io.info('No base URL configured: these are the operations of the document bundled with fleetctl.');
  const catalog = baseUrl ? await catalogFor(deps, baseUrl, opts.refresh) : { operations: bundledOperations() };
  const rows = catalog.operations.map((op) => ({ method: op.method, path: op.path, scope: op.scope, operation_id: op.operationId }));
  await deps.output().list(rows, ['method', 'path', 'scope', 'operation_id']);
}

async function catalogFor(deps: ApiRunDeps, baseUrl: string, refresh: boolean): Promise<OperationCatalog> {
  const served = await loadServedDocument({ transport: await deps.transport(), clock: deps.clock, configDir: deps.configDir() }, baseUrl, { refresh });
  const catalog = operationCatalogOf(served);
  if (catalog.warning) deps.io.warn(catalog.warning);
  return catalog;
}

/** The operation of the document the request is for; a path it does not describe is a usage error. */
export function operationFor(catalog: OperationCatalog, method: string, path: string): ServedOperation {
  const op = matchOperationIn(catalog.operations, method, path);
  if (op) return op;
  const others = API_METHODS.filter((m) => matchOperationIn(catalog.operations, m, path));
  if (others.length > 0) {
    throw new UsageError(`${method} ${quoteInput(path)} is not an operation of the API: that path takes ${others.join(', ')}`, 'run `fleetctl api --list` for every operation');
  }
  throw new UsageError(`${quoteInput(path)} is not a path of the API document`, 'run `fleetctl api --list` for every operation');
}

/** JSON unless the user asked for another format (or --jq): `api` prints what the API answers. */
function outputOf(deps: Pick<Deps, 'output' | 'globals'>): Output {
  const g = deps.globals();
  if (g.output !== undefined || g.json || g.jq !== undefined) return deps.output();
  return deps.output().asJson();
}

function isPage(body: unknown): body is Page<unknown> {
  return body !== null && typeof body === 'object' && Array.isArray((body as Page<unknown>).data);
}

/** Tables and CSV need columns: --columns, else the members of the first item. */
async function withColumns(records: AsyncIterable<unknown>, output: Output): Promise<{ records: AsyncIterable<unknown>; columns: string[] }> {
  if (!output.showsColumns) return { records, columns: [] };
  const iterator = records[Symbol.asyncIterator]();
  const first = await iterator.next();
  const columns = first.done || first.value === null || typeof first.value !== 'object' ? ['value'] : Object.keys(first.value as object);
  async function* replay() {
    if (first.done) return;
    yield first.value;
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield next.value;
  }
  return { records: replay(), columns };
}
