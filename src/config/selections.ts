// Saved selections in the config store: per profile, a name and the expression it stands for. Written under the
// store's lock like every other change; read without it.
import type { ConfigStore } from './store.js';

/** Saves (or replaces) one; true when it replaced an expression saved under the same name. */
export async function saveSelection(store: ConfigStore, profile: string, name: string, expression: string): Promise<boolean> {
  let replaced = false;
  await store.update((data) => {
    const current = data.profiles[profile] ?? {};
    replaced = current.selections?.[name] !== undefined;
    data.profiles[profile] = { ...current, selections: { ...current.selections, [name]: expression } };
  });
  return replaced;
}

/** Deletes one; false when there was none of that name (then nothing is written). */
export async function deleteSelection(store: ConfigStore, profile: string, name: string): Promise<boolean> {
  let deleted = false;
  await store.update((data) => {
    const current = data.profiles[profile];
    if (current?.selections?.[name] === undefined) return;
    const { [name]: _gone, ...rest } = current.selections;
    data.profiles[profile] = { ...current, selections: rest };
    deleted = true;
  });
  return deleted;
}
