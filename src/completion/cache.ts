// Values looked up for completion are kept a minute in the config folder: pressing Tab twice, or completing the
// next id of the same command, does not ask the API again. One file per API, client and kind of value.
import { nodeCrypto } from '../shared/node-crypto.js';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Clock } from '../io/clock.js';
import { writeFileAtomically } from '../io/atomic-file.js';
import type { Candidate } from './candidates.js';

export const COMPLETION_CACHE_TTL_MS = 60_000;

export interface CachedListing {
  candidates: Candidate[];
  /** False when the API had more than the first pages read: a value may exist beyond them. */
  complete: boolean;
}

interface CacheFile extends CachedListing {
  fetched_at: string;
}

export class CompletionCache {
  constructor(
    private readonly directory: string,
    private readonly clock: Clock,
  ) {}

  static in(configDir: string, clock: Clock): CompletionCache {
    return new CompletionCache(path.join(configDir, 'completion-cache'), clock);
  }

  /** What was stored under these key parts less than a minute ago; anything unreadable is a miss. */
  async get(keyParts: readonly (string | undefined)[]): Promise<CachedListing | undefined> {
    try {
      const data = JSON.parse(await readFile(this.fileFor(keyParts), 'utf8')) as Partial<CacheFile>;
      const age = this.clock.now().getTime() - Date.parse(String(data.fetched_at));
      if (!(age >= 0 && age < COMPLETION_CACHE_TTL_MS) || !Array.isArray(data.candidates)) return undefined;
      const candidates = data.candidates.filter((c): c is Candidate => typeof c?.value === 'string');
      return { candidates, complete: data.complete === true };
    } catch {
      return undefined;
    }
  }

  async put(keyParts: readonly (string | undefined)[], listing: CachedListing): Promise<void> {
    const data: CacheFile = { fetched_at: this.clock.now().toISOString(), ...listing };
    await writeFileAtomically(this.fileFor(keyParts), `${JSON.stringify(data)}\n`);
  }

  private fileFor(keyParts: readonly (string | undefined)[]): string {
    const key = nodeCrypto().createHash('sha256').update(JSON.stringify(keyParts)).digest('hex').slice(0, 24);
    return path.join(this.directory, `${key}.json`);
  }
}
