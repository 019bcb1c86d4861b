// Loader hooks (run off the main thread): record each module URL, and each import the loader resolved (the
// importing module's URL and the imported one's: Node resolves every import statement and import() of every
// module, the same module imported from two files twice), change nothing.
import { appendFileSync } from 'node:fs';

let file;
let edges;

export function initialize(data) {
  file = data?.file;
  edges = data?.edges;
}

export async function resolve(specifier, context, nextResolve) {
  const resolved = await nextResolve(specifier, context);
  if (edges && context.parentURL && resolved.url.startsWith('file:')) appendFileSync(edges, `${context.parentURL} ${resolved.url}\n`);
  return resolved;
}

export async function load(url, context, nextLoad) {
  if (file) appendFileSync(file, `${url}\n`);
  return nextLoad(url, context);
}
