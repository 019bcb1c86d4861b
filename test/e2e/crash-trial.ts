// What the crash tests share: the bulk reboot they kill, the built CLI spawned with the clean environment a user's
// shell would give it, and the proof of exactly-once: the sandbox's own command log, counted by hardware id.
import { spawn, type ChildProcess } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { BIN } from './harness.js';
import { loadState } from '../../src/sandbox/state-file.js';

// the seeded world's first fleet: 35 devices, 31 of which can reboot
export const FLEET = 'a82784ac-01c6-42cf-869c-62428c14904b';
export const REBOOTABLE = 31;

/** A bulk reboot of FLEET under `key`, four at a time unless `extra` says otherwise (a later flag wins). */
export const rebootArgs = (key: string, ...extra: string[]) => ['devices', 'reboot', '--fleet-id', FLEET, '--idempotency-key', key, '--concurrency', '4', '--yes', ...extra];

/** The built CLI as a process of its own, as a shell starts it: no TTY, CI, no colour, no keychain. */
export function spawnFleetctl(args: string[], env: Record<string, string>, stdout: 'ignore' | 'pipe' | number = 'ignore'): ChildProcess {
  return spawn(process.execPath, [BIN, ...args], {
    env: { PATH: process.env.PATH ?? '', HOME: os.tmpdir(), CI: 'true', NO_COLOR: '1', FLEETCTL_KEYCHAIN: 'off', ...env },
    stdio: ['ignore', stdout, 'pipe'],
  });
}

export interface CommandLogEntry {
  hardware_id: string;
  idempotency_key: string;
}

/** Executions by hardware id, of the commands sent under `key` (each device's key is `KEY:...`). */
export function executionsOf(log: CommandLogEntry[], key: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const entry of log) {
    if (entry.idempotency_key.startsWith(`${key}:`)) counts.set(entry.hardware_id, (counts.get(entry.hardware_id) ?? 0) + 1);
  }
  return counts;
}

/** The embedded sandbox's command log, from its state file in `configDir`, read as the next run would read it. */
export async function embeddedCommandLog(configDir: string): Promise<CommandLogEntry[]> {
  const saved = await loadState(path.join(configDir, 'sandbox', 'state.json'));
  return saved?.state.commands.log ?? [];
}

export { seeded } from '../support/seeded-random.js';
