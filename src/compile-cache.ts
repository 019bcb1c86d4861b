// Node 22.1 and later can keep V8's compiled code of the modules a command loads between runs: a script that calls
// fleetctl in a loop then compiles the bundle once, not on every call. Loaded by bin/fleetctl.js before the
// bundle; does nothing on Node 20, which has no module.enableCompileCache.
import module from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { ensureDirectory } from './io/directories.js';

type EnableCompileCache = (directory: string) => { status: number; message?: string; directory?: string };

/** $XDG_CACHE_HOME/fleetctl, else ~/.cache/fleetctl (a relative XDG_CACHE_HOME is ignored, as the XDG spec asks). */
export function compileCacheDirectory(env: NodeJS.ProcessEnv): string {
  const xdg = env.XDG_CACHE_HOME;
  const base = xdg && path.isAbsolute(xdg) ? xdg : path.join(os.homedir(), '.cache');
  return path.join(base, 'fleetctl');
}

/** Turns the compile cache on when this Node has one; NODE_DISABLE_COMPILE_CACHE=1 turns it off, as for Node itself. */
export function enableCompileCache(env: NodeJS.ProcessEnv): void {
  const enable = (module as { enableCompileCache?: EnableCompileCache }).enableCompileCache;
  if (!enable || env.NODE_DISABLE_COMPILE_CACHE) return;
  try {
    const directory = compileCacheDirectory(env);
    // made here, level by level: Node's own recursive mkdir never ends under /proc
    ensureDirectory(directory);
    enable(directory);
  } catch {
    // only a speed-up: a cache directory that cannot be made or used costs time, nothing else
  }
}
