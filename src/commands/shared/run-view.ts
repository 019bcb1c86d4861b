// What a person sees of a bulk run (bulk/pipeline.ts) as it goes: the progress line on stderr, lines above it, and
// with -o ndjson each result on stdout as it is final (in that order; --jq runs each through jq). Shared by the
// device commands and the assignments, so both show a run the same way.
import type { Deps } from '../../factory.js';
import { startProgress, type Progress } from '../../io/progress.js';

export interface RunView {
  /** The format writes results one by one (-o ndjson); otherwise they are listed once the run ends. */
  readonly streaming: boolean;
  readonly progress: Progress;
  /** A line for stderr that does not land on the progress line. */
  say(line: string): void;
  warn(line: string): void;
  /** A result, streamed (ndjson only). */
  print(record: object): void;
  /** The run ended: the progress line is cleared, and every streamed line is out (a failure to write is thrown). */
  finish(): Promise<void>;
  /** The run failed: the same, with a failure to write left to the failure being reported. */
  abandon(): Promise<void>;
}

export async function startRunView(deps: Pick<Deps, 'io' | 'output'>, opts: { label: string; total: number }): Promise<RunView> {
  const output = deps.output();
  const streaming = output.streamsRecords;
  // the summary that follows says what was done: the line is cleared, as status clears its own
  const progress = await startProgress(deps.io, { ...opts, leave: 'nothing' });
  let printed = Promise.resolve();
  return {
    streaming,
    progress,
    say: (line) => progress.above(() => deps.io.info(line)),
    warn: (line) => progress.above(() => deps.io.warn(line)),
    print(record) {
      if (!streaming) return;
      // ndjson writes its line synchronously, so it is out before the progress line comes back
      progress.above(() => {
        const line = output.item(record);
        line.catch(() => undefined); // reported once, from `printed`
        printed = printed.then(() => line);
      });
    },
    async finish() {
      progress.finish();
      await printed;
    },
    async abandon() {
      progress.finish();
      await printed.catch(() => undefined);
    },
  };
}

/** The line that starts a journalled run: what it sends, what an earlier attempt did (resumed), where its journal is. */
export function runStartLine(runId: string, what: string, alreadyDone: number | undefined, journalFile: string): string {
  return `Run ${runId}: ${what}${alreadyDone === undefined ? '' : ` (${alreadyDone} already done)`}; journal ${journalFile} (if interrupted: --resume ${runId})`;
}
