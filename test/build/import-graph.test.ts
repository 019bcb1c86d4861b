// The module graph of src/, read from the sources: no import cycle anywhere, between modules or between folders,
// type-only imports counted; the sandbox reaches nothing of the CLI (it runs alone as `fleetctl sandbox`,
// embedded, or in tests), only the leaf modules both sides share; nothing below the commands, the factory
// included, imports a command module; only the record boundary (src/records/) and src/openapi/ read schemas; the
// writers of the output formats are the output layer's own.
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const SRC = 'src';


function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const file = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return sourceFiles(file);
    return /\.ts$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [file] : [];
  });
}

interface Edge {
  to: string;
  /** `import type`, `export type`: gone at run time. */
  typeOnly: boolean;
}

const SPECIFIER = /(?:^|[;\s])(?:import|export)\s+(type\s+)?(?:[^'";]*?\s+from\s+)?['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)/g;

/** Every module a file imports, `import type` included: a type cycle ties two modules as much as any. */
function importsOf(file: string): Edge[] {
  const text = readFileSync(path.join(root, file), 'utf8');
  const edges: Edge[] = [];
  for (const m of text.matchAll(SPECIFIER)) {
    const specifier = m[2] ?? m[3]!;
    const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier)).replace(/\.js$/, '.ts');
    if (target.endsWith('.ts')) edges.push({ to: target, typeOnly: Boolean(m[1]) });
  }
  return edges;
}

const graph = new Map(sourceFiles(SRC).map((file) => [file, importsOf(file)]));

/** Strongly connected components of more than one node (Tarjan), each a cycle of imports. */
function cycles(edges: (node: string) => string[], nodes: Iterable<string> = graph.keys()): string[][] {
  const known = new Set(nodes);
  let index = 0;
  const order = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const found: string[][] = [];
  const visit = (file: string): void => {
    order.set(file, index);
    low.set(file, index++);
    stack.push(file);
    for (const next of edges(file)) {
      if (!known.has(next)) continue;
      if (!order.has(next)) {
        visit(next);
        low.set(file, Math.min(low.get(file)!, low.get(next)!));
      } else if (stack.includes(next)) low.set(file, Math.min(low.get(file)!, order.get(next)!));
    }
    if (low.get(file) === order.get(file)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        component.push(member);
      } while (member !== file);
      if (component.length > 1 || edges(file).includes(file)) found.push(component.sort());
    }
  };
  for (const file of known) if (!order.has(file)) visit(file);
  return found;
}

/** The folder a module belongs to for the folder rule: src/api/, src/sandbox/ (subfolders included); a file at the top stands alone. */
function folderOf(file: string): string {
  const [, top, rest] = file.split('/');
  return rest === undefined ? file : `src/${top}/`;
}

/** Which folders each folder imports from, type-only imports included. */
const folderGraph = new Map<string, Set<string>>();
for (const [file, edges] of graph) {
  const from = folderOf(file);
  const targets = folderGraph.get(from) ?? new Set<string>();
  for (const { to } of edges) if (graph.has(to) && folderOf(to) !== from) targets.add(folderOf(to));
  folderGraph.set(from, targets);
}

/**
 * The folders one level inside `parent` (src/sandbox/common/, src/sandbox/http/...) and the files directly in it,
 * each a node; a module deeper down belongs to the subfolder it is under.
 */
function nestedFolderOf(parent: string, file: string): string {
  const rest = file.slice(parent.length).split('/');
  return rest.length === 1 ? file : `${parent}${rest[0]}/`;
}

/** Which nodes inside `parent` each node imports from, type-only imports included; imports leaving `parent` are the top-level rule's. */
function nestedFolderGraph(parent: string): Map<string, string[]> {
  const nested = new Map<string, Set<string>>();
  for (const [file, edges] of graph) {
    if (!file.startsWith(parent)) continue;
    const from = nestedFolderOf(parent, file);
    const targets = nested.get(from) ?? new Set<string>();
    for (const { to } of edges) if (graph.has(to) && to.startsWith(parent) && nestedFolderOf(parent, to) !== from) targets.add(nestedFolderOf(parent, to));
    nested.set(from, targets);
  }
  return new Map([...nested].map(([node, targets]) => [node, [...targets]]));
}

/** Every folder of src/ (at any depth) that has subfolders holding modules: each is checked for cycles between them. */
const FOLDERS_WITH_SUBFOLDERS = [...new Set([...graph.keys()].flatMap((file) => {
  const parts = file.split('/').slice(0, -1);
  return parts.slice(1, -1).map((_, i) => `${parts.slice(0, i + 2).join('/')}/`);
}))].sort();

/** What the sandbox may use outside its own directory: leaf modules with no tie to the CLI. */
const SHARED_WITH_THE_SANDBOX = [
  'src/shared/', 'src/openapi/', 'src/webhooks/', 'src/errors.ts',
  'src/io/atomic-file.ts', 'src/io/temporary-file.ts', 'src/io/directories.ts', 'src/io/read-input.ts',
  'src/io/file-lock.ts', 'src/io/lock-holder.ts', 'src/io/clock.ts',
];

/** The schema readers of openapi/document-shapes.ts: what only the record boundary and openapi/ itself may use. */
const SCHEMA_READERS = /\b(resolveSchema|requestBodySchema|responseRecordSchema|parameterSchemas|recordFields|recordFieldNames)\b/;
/** A schema walked by hand: its members, or its composition. */
const SCHEMA_WALK = /\.properties\b|\b(allOf|anyOf|oneOf)\b/;
/** Where a schema is still read outside src/records/: this list may only shrink. */
// empty since request checks and the webhook payload check ask src/openapi/ (request-rules.ts, payload-members.ts)
const SCHEMAS_READ_ELSEWHERE: Record<string, string> = {};

describe('the import graph of src/', () => {
  it('reads every import of the sources', () => {
    // a pattern that matched nothing would make the checks below pass vacuously
    expect(graph.get('src/main.ts')!.length).toBeGreaterThan(5);
    expect(graph.get('src/sandbox/index.ts')).toContainEqual({ to: 'src/errors.ts', typeOnly: false });
    expect(graph.get('src/commands/devices/device-command.ts')).toContainEqual({ to: 'src/factory.ts', typeOnly: true });
  });

  // an `import type` cycle is harmless at run time, yet leaves two modules that cannot be read or moved apart
  it('has no import cycle between modules, type-only imports included', () => {
    expect(cycles((file) => graph.get(file)!.map((edge) => edge.to))).toEqual([]);
  });

  it('has no import cycle between folders, type-only imports included, but those left to break', () => {
    expect(folderGraph.get('src/sandbox/')).toContain('src/webhooks/');
    expect(cycles((folder) => [...folderGraph.get(folder)!], folderGraph.keys())).toEqual([]);
  });

  // the sandbox is a quarter of src/: its folders layer like the top-level ones (common/ at the bottom, control/
  // at the top), so one can be read, tested or moved without the rest; a shared leaf lives below all its users
  it('has no import cycle between the subfolders of any folder (src/sandbox/ included), type-only imports included, none allowed', () => {
    expect(FOLDERS_WITH_SUBFOLDERS).toContain('src/sandbox/');
    expect(nestedFolderGraph('src/sandbox/').get('src/sandbox/routes/')).toContain('src/sandbox/common/');
    const found = FOLDERS_WITH_SUBFOLDERS.flatMap((parent) => {
      const nested = nestedFolderGraph(parent);
      return cycles((node) => nested.get(node) ?? [], nested.keys());
    });
    expect(found).toEqual([]);
  });

  it('finds a cycle between subfolders when there is one', () => {
    // the check above would pass vacuously if the nested graph lost its edges
    const knot = new Map([['src/x/a/', ['src/x/b/']], ['src/x/b/', ['src/x/a/']], ['src/x/c/', ['src/x/a/']]]);
    expect(cycles((node) => knot.get(node)!, knot.keys())).toEqual([['src/x/a/', 'src/x/b/']]);
  });

  it('lets the sandbox reach nothing of the CLI, however indirectly', () => {
    const reached = new Map<string, string>();
    const pending = [...graph.keys()].filter((file) => file.startsWith('src/sandbox/'));
    for (const file of pending) reached.set(file, file);
    while (pending.length > 0) {
      const file = pending.pop()!;
      for (const { to } of graph.get(file) ?? []) {
        if (reached.has(to)) continue;
        reached.set(to, file);
        pending.push(to);
      }
    }
    const outside = [...reached].filter(([file]) => !file.startsWith('src/sandbox/') && !SHARED_WITH_THE_SANDBOX.some((shared) => file.startsWith(shared)));
    expect(outside.map(([file, from]) => `${from} -> ${file}`)).toEqual([]);
  });

});

describe('the layers of src/', () => {
  it('keeps the transport (src/http/) below both api/ and auth/, and auth/ below api/: no folder cycle, types included', () => {
    // the API client uses tokens and the transport, the token request uses the transport: never the other way
    const mayNotImport: Record<string, string[]> = { 'src/http/': ['src/api/', 'src/auth/'], 'src/auth/': ['src/api/'] };
    const upward = [...graph].flatMap(([file, edges]) => {
      const [, forbidden] = Object.entries(mayNotImport).find(([folder]) => file.startsWith(folder)) ?? [];
      return edges.filter((edge) => forbidden?.some((folder) => edge.to.startsWith(folder))).map((edge) => `${file} -> ${edge.to}`);
    });
    expect(graph.get('src/auth/tokens.ts')).toContainEqual({ to: 'src/http/retry-loop.ts', typeOnly: false });
    expect(upward).toEqual([]);
  });

  it('keeps the bulk engine (src/bulk/) silent: it asks nothing and renders nothing (no prompter, output layer, progress display or streams), the command layer does', () => {
    const rendering = ['src/io/prompter.ts', 'src/io/streams.ts', 'src/output/'];
    const found = [...graph].flatMap(([file, edges]) =>
      file.startsWith('src/bulk/') ? edges.filter((edge) => rendering.some((r) => edge.to.startsWith(r))).map((edge) => `${file} -> ${edge.to}`) : [],
    );
    // the display of progress is the command layer's; its duration format is shared
    const progress = [...graph].filter(([file, edges]) => file.startsWith('src/bulk/') && edges.some((e) => e.to === 'src/io/progress.ts') && /startProgress/.test(readFileSync(path.join(root, file), 'utf8')));
    expect(graph.get('src/commands/shared/run-view.ts')).toContainEqual({ to: 'src/io/progress.ts', typeOnly: false });
    expect(found).toEqual([]);
    expect(progress.map(([file]) => file)).toEqual([]);
  });

  it('keeps the layers under the commands (factory, API client, auth, bulk engine, config, output, webhooks...) free of them', () => {
    const below = ['src/factory.ts', 'src/api/', 'src/auth/', 'src/http/', 'src/bulk/', 'src/config/', 'src/io/', 'src/output/', 'src/openapi/', 'src/selection/', 'src/shared/', 'src/webhooks/', 'src/errors.ts'];
    const upward = [...graph].flatMap(([file, edges]) =>
      below.some((layer) => file.startsWith(layer)) ? edges.filter((edge) => edge.to.startsWith('src/commands/')).map((edge) => `${file} -> ${edge.to}`) : [],
    );
    expect(upward).toEqual([]);
  });

  it('lets only the record boundary (src/records/) and src/openapi/ read a schema: no other module imports the schema readers or walks one by hand', () => {
    const readers = [...graph.keys()].filter((file) => !file.startsWith('src/records/') && !file.startsWith('src/openapi/'));
    const found = readers.filter((file) => {
      const text = readFileSync(path.join(root, file), 'utf8');
      const importsReader = [...text.matchAll(/import\s*(?:type\s+)?\{([^}]*)\}\s*from\s*['"][^'"]*document-shapes\.js['"]|\{([^}]*)\}\s*=\s*await import\(\s*['"][^'"]*document-shapes\.js['"]/g)].some((m) => SCHEMA_READERS.test(m[1] ?? m[2]!));
      return importsReader || SCHEMA_WALK.test(text);
    });
    // the rule reads what it means to: the boundary itself reads schemas
    expect(graph.get('src/records/report-time.ts')).toContainEqual({ to: 'src/openapi/document-shapes.ts', typeOnly: false });
    expect(found.filter((file) => !(file in SCHEMAS_READ_ELSEWHERE))).toEqual([]);
    // an entry whose file no longer reads schemas is taken off the list
    expect(Object.keys(SCHEMAS_READ_ELSEWHERE).filter((file) => !found.includes(file))).toEqual([]);
  });

  it('keeps the writers of the formats inside the output layer: outside it, only the -o choices (main.ts) and their parsing (config/global-flags.ts) read the registry', () => {
    const outside = [...graph].flatMap(([file, edges]) =>
      file.startsWith('src/output/') ? [] : edges.filter((edge) => edge.to.startsWith('src/output/writers/')).map((edge) => `${file} -> ${edge.to}`),
    );
    // the rule reads what it means to: the output layer itself asks the registry for its writer
    expect(graph.get('src/output/render.ts')).toContainEqual({ to: 'src/output/writers/registry.ts', typeOnly: false });
    expect(outside.sort()).toEqual(['src/config/global-flags.ts -> src/output/writers/registry.ts', 'src/main.ts -> src/output/writers/registry.ts']);
  });

  it('keeps the record boundary below its readers: src/records/ imports only src/openapi/, src/shared/ and errors', () => {
    const allowed = ['src/records/', 'src/openapi/', 'src/shared/', 'src/errors.ts'];
    const outside = [...graph].flatMap(([file, edges]) =>
      file.startsWith('src/records/') ? edges.filter((edge) => !allowed.some((folder) => edge.to.startsWith(folder))).map((edge) => `${file} -> ${edge.to}`) : [],
    );
    expect(graph.get('src/records/resources.ts')!.length).toBeGreaterThan(2);
    expect(outside).toEqual([]);
  });
});
