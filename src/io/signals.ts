// main.ts owns SIGINT, SIGTERM and SIGHUP: a command stops cleanly and its cleanups run (an embedded sandbox saves
// its state, locks are released). Some libraries hook those signals as they load: conf writes through `atomically`,
// whose `when-exit` answers them by killing the process again at once, before any cleanup.

export const OWNED_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/** Loads a module and takes back the handlers of OWNED_SIGNALS it installed while loading. */
export async function loadKeepingSignals<T>(load: () => Promise<T>): Promise<T> {
  const before = new Map(OWNED_SIGNALS.map((signal) => [signal, new Set(process.listeners(signal))]));
  try {
    return await load();
  } finally {
    for (const signal of OWNED_SIGNALS) {
      for (const listener of process.listeners(signal)) {
        if (!before.get(signal)!.has(listener)) process.removeListener(signal, listener);
      }
    }
  }
}
