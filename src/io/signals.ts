// main.ts owns SIGINT and SIGTERM: a command stops cleanly and its cleanups run (an embedded sandbox saves its
// state). Some libraries hook those signals as they load: conf writes through `atomically`, whose `when-exit`
// answers SIGINT/SIGTERM by killing the process again at once, before any cleanup.

const OWNED_SIGNALS = ['SIGINT', 'SIGTERM'] as const;

/** Loads a module and takes back the SIGINT/SIGTERM handlers it installed while loading. */
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
