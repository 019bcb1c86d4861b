// Extensions: an executable `fleetctl-NAME` in a folder of PATH runs as `fleetctl NAME ARGS`. PATH is searched
// in order and the first executable of a name wins, as the shell finds a command. Only main.ts (for a first word
// that is neither a command of fleetctl nor an alias), help, completion and `extension list` look: a command of
// fleetctl's own never reads a folder of PATH.
import { accessSync, constants, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { shadowOf, type FirstWordOwners, type ListedExtension } from './listing.js';

export const EXTENSION_PREFIX = 'fleetctl-';

/** A name an extension may have: a word of its own, so `fleetctl ../x` can never name a file outside PATH. */
const NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;

export interface ExtensionOnPath {
  name: string;
  /** The executable that runs, absolute. */
  path: string;
}

/** On Windows a command is found with one of PATHEXT's endings (.EXE, .CMD, ...); elsewhere by its name alone. */
function endingsOf(env: NodeJS.ProcessEnv): string[] {
  if (process.platform !== 'win32') return [''];
  return ['', ...(env.PATHEXT ?? '.EXE;.CMD;.BAT').split(';').filter(Boolean).map((ending) => ending.toLowerCase())];
}

/** The folders of PATH, in order, each once; an empty entry (the current folder by old convention) is left out. */
function pathFolders(env: NodeJS.ProcessEnv): string[] {
  const entries = (env.PATH ?? env.Path ?? '').split(path.delimiter).filter((entry) => entry !== '' && path.isAbsolute(entry));
  return [...new Set(entries)];
}

function isExecutableFile(file: string): boolean {
  try {
    if (!statSync(file).isFile()) return false;
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

export function isExtensionName(name: string): boolean {
  return NAME.test(name);
}

/** The executable `fleetctl NAME` runs, or undefined when no folder of PATH has one. */
export function findExtension(name: string, env: NodeJS.ProcessEnv): ExtensionOnPath | undefined {
  if (!isExtensionName(name)) return undefined;
  for (const folder of pathFolders(env)) {
    for (const ending of endingsOf(env)) {
      const file = path.join(folder, `${EXTENSION_PREFIX}${name}${ending}`);
      if (isExecutableFile(file)) return { name, path: file };
    }
  }
  return undefined;
}

/** The name a file of PATH gives an extension (its ending dropped on Windows), or undefined when it gives none. */
function extensionNameOf(file: string, endings: string[]): string | undefined {
  if (!file.startsWith(EXTENSION_PREFIX)) return undefined;
  const lower = file.toLowerCase();
  const ending = endings.find((e) => e !== '' && lower.endsWith(e)) ?? '';
  const name = file.slice(EXTENSION_PREFIX.length, file.length - ending.length);
  return isExtensionName(name) ? name : undefined;
}

/** Every extension on PATH, by name: the one that runs for each (the first in PATH's order). */
export function extensionsOnPath(env: NodeJS.ProcessEnv): ExtensionOnPath[] {
  const found = new Map<string, ExtensionOnPath>();
  const endings = endingsOf(env);
  for (const folder of pathFolders(env)) {
    let files: string[];
    try {
      files = readdirSync(folder);
    } catch {
      continue;
    }
    for (const file of files.sort()) {
      const name = extensionNameOf(file, endings);
      const full = path.join(folder, file);
      if (name !== undefined && !found.has(name) && isExecutableFile(full)) found.set(name, { name, path: full });
    }
  }
  return [...found.values()].sort((a, b) => a.name.localeCompare(b.name));
}

/** Every extension on PATH, each marked when a command of fleetctl or an alias takes its name first. */
export function listedExtensions(env: NodeJS.ProcessEnv, owners: FirstWordOwners): ListedExtension[] {
  return extensionsOnPath(env).map((found) => ({ ...found, shadowed_by: shadowOf(found.name, owners) }));
}
