// Node 22.1 and later can keep V8's compiled code of the modules a command loads between runs: a script that calls
// fleetctl in a loop then compiles the bundle once, not on every call. Loaded by bin/fleetctl.js before the
// bundle; does nothing on Node 20, which has no module.enableCompileCache.
// Its file imports nothing (built-ins through process.getBuiltinModule): a module it imported would be a chunk
// loaded before the bundle, and so one every chunk of the bundle imports too, an import Node resolves again for
// each file on every call (src/build/chunks.mjs). The directory is made level by level (io/directories.ts) when
// it is missing, the first time, which loads the bundle's core before the cache is on, that once.

type EnableCompileCache = (directory: string) => { status: number; message?: string; directory?: string };

/** $XDG_CACHE_HOME/fleetctl, else ~/.cache/fleetctl (a relative XDG_CACHE_HOME is ignored, as the XDG spec asks). */
export function compileCacheDirectory(env: NodeJS.ProcessEnv): string {
  const path = process.getBuiltinModule('node:path');
  const xdg = env.XDG_CACHE_HOME;
  const base = xdg && path.isAbsolute(xdg) ? xdg : path.join(process.getBuiltinModule('node:os').homedir(), '.cache');
  return path.join(base, 'fleetctl');
}

/** Turns the compile cache on when this Node has one; NODE_DISABLE_COMPILE_CACHE=1 turns it off, as for Node itself. */
export async function enableCompileCache(env: NodeJS.ProcessEnv): Promise<void> {
  const enable = (process.getBuiltinModule('node:module') as { enableCompileCache?: EnableCompileCache }).enableCompileCache;
  if (!enable || env.NODE_DISABLE_COMPILE_CACHE) return;
  try {
    const directory = compileCacheDirectory(env);
    if (!isDirectory(directory)) {
      // made here, level by level: Node's own recursive mkdir never ends under /proc
      const { ensureDirectory } = await import('./io/directories.js');
      ensureDirectory(directory);
    }
    enable(directory);
  } catch {
    // only a speed-up: a cache directory that cannot be made or used costs time, nothing else
  }
}

function isDirectory(directory: string): boolean {
  try {
    return process.getBuiltinModule('node:fs').statSync(directory).isDirectory();
  } catch {
    return false;
  }
}
