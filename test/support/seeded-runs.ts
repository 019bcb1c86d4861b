// How a seeded property suite is told its seed and its number of cases by the environment: a fixed seed and a
// fixed number in CI, "random" (printed by the suite) or a number to explore or replay locally.

/** The seed named by the variable `name`: its integer, a fresh one for "random", `fixed` when unset. */
export function seedFromEnv(name: string, fixed: number): number {
  const value = process.env[name];
  if (value === undefined || value === '') return fixed;
  if (value === 'random') return Math.floor(Math.random() * 2 ** 31);
  const seed = Number(value);
  if (!Number.isInteger(seed)) throw new Error(`${name} must be an integer or "random", got ${value}`);
  return seed;
}

/** The number of cases named by the variable `name` (1 or more), `fallback` when unset. */
export function runsFromEnv(name: string, fallback: number): number {
  const value = process.env[name];
  if (value === undefined || value === '') return fallback;
  const runs = Number(value);
  if (!(Number.isInteger(runs) && runs >= 1)) throw new Error(`${name} must be a whole number of cases, 1 or more, got ${value}`);
  return runs;
}
