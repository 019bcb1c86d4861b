// The API's OpenAPI document (src/openapi/v1.json), served at /openapi/v1.json. It is read from disk
// next to the sources (src/sandbox/routes → src/openapi) or next to the bundle (dist → src/openapi, which
// the npm package ships), once.
import { readFile } from 'node:fs/promises';
import { problem } from '../http/problems.js';

const CANDIDATES = ['../../openapi/v1.json', '../src/openapi/v1.json'];
let cached: Promise<unknown> | undefined;

export function openApiDocument(): Promise<unknown> {
  cached ??= load().catch((err) => {
    cached = undefined;
    throw err;
  });
  return cached;
}

async function load(): Promise<unknown> {
  for (const candidate of CANDIDATES) {
    try {
      return JSON.parse(await readFile(new URL(candidate, import.meta.url), 'utf8'));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
  }
  throw problem(404, 'route.not_found', 'The OpenAPI document is not available in this build.');
}
