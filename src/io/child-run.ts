// A program fleetctl hands the line to (a --shell alias's script, an extension on PATH), run with the terminal's
// streams. child_process is loaded here only: a command that runs no other program never loads it
// (test/build/startup.test.ts).
import type { IOStreams } from './streams.js';
import { OWNED_SIGNALS } from './signals.js';

export interface ChildRun {
  file: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  /**
   * The signals fleetctl receives go to the program, and fleetctl waits for it to end: its status says how it
   * stopped. Without, main.ts's own handlers stop fleetctl as for any command.
   */
  forwardSignals?: boolean;
}

/** The program's exit status; killed by a signal, 128 and the signal's number, as a shell reports it. */
export async function runChild(run: ChildRun, io: IOStreams): Promise<number> {
  const { spawn } = await import('node:child_process');
  const { constants } = await import('node:os');
  // taken over before the program starts: a signal sent as soon as it is running (it printed that it is ready)
  // reaches it even when it comes before spawn() has returned here
  const forwarding = run.forwardSignals ? forwardSignals() : undefined;
  let child: ReturnType<typeof spawn>;
  try {
    child = spawn(run.file, run.args, {
      env: run.env,
      // the process's own streams are the program's; streams of a test (in-process) get what the program writes
      stdio: io.out === process.stdout ? 'inherit' : ['ignore', 'pipe', 'pipe'],
    });
  } catch (error) {
    forwarding?.restore();
    throw error;
  }
  child.stdout?.on('data', (chunk: Buffer) => io.out.write(chunk));
  child.stderr?.on('data', (chunk: Buffer) => io.err.write(chunk));
  forwarding?.attach(child);
  const restore = () => forwarding?.restore();
  try {
    return await new Promise<number>((resolve, reject) => {
      child.on('error', reject);
      child.on('close', (status, signal) => resolve(status ?? 128 + (signal ? constants.signals[signal] : 0)));
    });
  } finally {
    restore();
  }
}

/**
 * While the program runs, fleetctl's handlers of SIGINT, SIGTERM and SIGHUP step aside: each signal is passed on
 * and the program decides when to end. Ctrl-C on a terminal already reaches the program (the terminal signals its
 * whole process group), so SIGINT is passed on only when stdin is no terminal: the program gets it once. A signal
 * that comes before the program is there waits for it. The forwarding listener is added before fleetctl's own are
 * taken away, and they are put back before it goes: a signal never finds no listener (Node would stop watching it
 * for that moment, and one arriving then was lost).
 */
export function forwardSignals(): { attach(child: { kill(signal: NodeJS.Signals): boolean }): void; restore(): void } {
  const saved = new Map(OWNED_SIGNALS.map((signal) => [signal, process.listeners(signal)]));
  const early: NodeJS.Signals[] = [];
  let target: { kill(signal: NodeJS.Signals): boolean } | undefined;
  const forward = (signal: NodeJS.Signals) => {
    if (signal === 'SIGINT' && process.stdin.isTTY) return;
    if (target) target.kill(signal);
    else early.push(signal);
  };
  for (const signal of OWNED_SIGNALS) {
    process.on(signal, forward);
    for (const listener of saved.get(signal)!) process.removeListener(signal, listener as NodeJS.SignalsListener);
  }
  return {
    attach(child) {
      target = child;
      for (const signal of early.splice(0)) child.kill(signal);
    },
    restore() {
      for (const signal of OWNED_SIGNALS) {
        for (const listener of saved.get(signal)!) process.on(signal, listener as NodeJS.SignalsListener);
        process.removeListener(signal, forward);
      }
    },
  };
}
