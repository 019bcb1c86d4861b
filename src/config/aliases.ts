// The user's aliases in the config store: a name and the expansion it stands for, one map for every profile (an
// alias is the user's way of typing, not a setting of one service). Written under the store's lock like every
// other change; read without it.
import type { ConfigData, ConfigStore } from './store.js';

/** The stored aliases, in a map with no prototype (an alias named `constructor` is the user's). */
export function storedAliases(data: Pick<ConfigData, 'aliases'>): Readonly<Record<string, string>> {
  return Object.assign(Object.create(null) as Record<string, string>, data.aliases);
}

/** Sets (or replaces) one; true when it replaced an expansion stored under the same name. */
export async function saveAlias(store: ConfigStore, name: string, expansion: string): Promise<boolean> {
  let replaced = false;
  await store.update((data) => {
    replaced = Object.hasOwn(data.aliases ?? {}, name);
    data.aliases = { ...data.aliases, [name]: expansion };
  });
  return replaced;
}

/** Deletes one; false when there was none of that name (then nothing is written). */
export async function deleteAlias(store: ConfigStore, name: string): Promise<boolean> {
  let deleted = false;
  await store.update((data) => {
    if (!Object.hasOwn(data.aliases ?? {}, name)) return;
    const { [name]: _gone, ...rest } = data.aliases!;
    data.aliases = rest;
    deleted = true;
  });
  return deleted;
}
