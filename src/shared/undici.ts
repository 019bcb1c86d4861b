// undici, loaded on first use so that start-up never pays for it (test/build/startup.test.ts).
export type Undici = typeof import('undici');

/** undici is CommonJS: bundled, its dynamic import has only a default export; under Node both forms exist. */
export async function loadUndici(): Promise<Undici> {
  const loaded = (await import('undici')) as Undici & { default?: Undici };
  return loaded.default ?? loaded;
}
