// The bundled document composed at build time (src/openapi/composed-document.ts's rules, run on src/openapi/v1.json),
// written to src/openapi/v1.composed.gen.json with the key served-document.ts gives a document's composed copy.
// Composing costs a few hundred milliseconds of CPU: without this, the first command of every new config folder
// that reads the bundled document (every --sandbox world, whose service serves that very document) paid it, in one
// block that also held off Ctrl-C. A document a service serves otherwise is still composed at run time.
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';

/** As served-document.ts keys a composed copy: the rules' version and the document's JSON. */
export function composedKey(rulesVersion, document) {
  return createHash('sha256').update(`${rulesVersion}\n${JSON.stringify(document)}`).digest('hex').slice(0, 16);
}

export async function generateComposedDocument(root, outDir = path.join(root, 'src/openapi')) {
  // inside the project, so that the module finds its libraries in node_modules
  await mkdir(path.join(root, 'node_modules/.cache'), { recursive: true });
  const scratch = await mkdtemp(path.join(root, 'node_modules/.cache/fleetctl-compose-'));
  try {
    // the module as TypeScript compiles it, its libraries loaded from node_modules as at run time
    const module = path.join(scratch, 'composed-document.mjs');
    await build({ entryPoints: [path.join(root, 'src/openapi/composed-document.ts')], bundle: true, packages: 'external', platform: 'node', format: 'esm', outfile: module, logLevel: 'error' });
    const { composeDocument, COMPOSITION_RULES_VERSION } = await import(pathToFileURL(module).href);
    const document = JSON.parse(await readFile(path.join(root, 'src/openapi/v1.json'), 'utf8'));
    const key = composedKey(COMPOSITION_RULES_VERSION, document);
    const composed = await composeDocument(document);
    await writeFile(path.join(outDir, 'v1.composed.gen.json'), `${JSON.stringify({ key, document: composed })}\n`);
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}
