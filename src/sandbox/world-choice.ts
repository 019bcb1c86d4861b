// Which world a sandbox serves: the state file's when there is one (its seed, size, secret, anchor and scenario
// win), else the options'. Read at start, and again whenever another process sharing the file changed it.
import { randomBytes } from 'node:crypto';
import { CorruptStateError, type LoadedState, type SandboxState } from './state-file.js';
import { scenarioOrUsageError, readDataFile } from './control/data-file.js';
import { asScenario, type Scenario } from './scenario/scenario.js';
import { DEFAULT_DEVICES, DEFAULT_SEED, type SandboxOptions } from './options.js';
import type { WorldParams } from './sandbox-app.js';

/** The world to serve, and whether the state file must be written to keep it (new, or of an earlier version). */
export interface WorldChoice extends WorldParams {
  unpinned: boolean;
}

/** `given`: the scenario of the options (startupScenario), used only when there is no saved state. */
export async function chooseWorld(opts: SandboxOptions, loaded: LoadedState | null, given: Scenario | null, now: Date, log: (line: string) => void): Promise<WorldChoice> {
  const saved = loaded?.state ?? null;
  const seed = saved?.seed ?? opts.seed ?? DEFAULT_SEED;
  const devices = saved?.devices ?? opts.devices ?? DEFAULT_DEVICES;
  const scenario = saved ? await savedScenario(saved, opts.statePath!) : given;
  const differs = (opts.seed !== undefined && opts.seed !== seed) || (opts.devices !== undefined && opts.devices !== devices) || (given !== null && JSON.stringify(given) !== JSON.stringify(scenario));
  if (saved && differs) {
    log(`sandbox: ${opts.statePath} holds a world of seed ${seed} with ${devices} devices${scenario ? ` and scenario ${scenario.name ?? '(unnamed)'}` : ''}; using it (reset to start afresh)`);
  }
  return {
    seed,
    devices,
    // the world's own "now", kept with it: a new world's is this minute
    anchorMs: saved?.anchor === undefined ? Math.floor(now.getTime() / 60_000) * 60_000 : Date.parse(saved.anchor),
    secret: Buffer.from(saved?.secret ?? randomBytes(32).toString('hex'), 'hex'),
    scenario,
    saved,
    unpinned: saved?.anchor === undefined,
  };
}

export async function startupScenario(opts: SandboxOptions): Promise<Scenario | null> {
  if (opts.scenarioFile !== undefined) return scenarioOrUsageError(opts.scenarioFile, await readDataFile(opts.scenarioFile, 'scenario'));
  if (opts.scenario !== undefined) return scenarioOrUsageError('scenario', opts.scenario);
  return null;
}

async function savedScenario(saved: SandboxState, statePath: string): Promise<Scenario | null> {
  if (!saved.scenario) return null;
  try {
    return await asScenario(saved.scenario);
  } catch (err) {
    throw new CorruptStateError(statePath, `its scenario does not fit the Scenario schema: ${(err as Error).message}`);
  }
}
