import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The longest files first, whatever vitest remembers: a fresh clone (CI) has no record of durations, and vitest
 * then keeps the files in the order it found them, which started the help examples (the longest file by far)
 * a third of the way in and left the one long fuzz file to run beside nothing but short unit files at the end,
 * one core idle. So: the help examples, the fuzz suite and the document-forms property (one test of some 20 s,
 * mostly waiting for devices to come back) first, side by side, then the other end-to-end files,
 * then the short in-process ones to fill the end. Within each rank, vitest's own order (longest first once it
 * knows durations).
 */
const LONGEST = ['/e2e/help-examples.test.ts', '/e2e/document-forms-property.test.ts'];

class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (spec: TestSpecification): number => {
      if (spec.project.name === 'fuzz' || LONGEST.some((file) => spec.moduleId.endsWith(file))) return 0;
      return spec.moduleId.includes('/test/e2e/') ? 1 : 2;
    };
    // Array.prototype.sort is stable: vitest's order holds within a rank
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}

export default defineConfig({
  test: {
    // every fake a test scripts must be used: checked when each test ends (test/support/fakes.ts)
    setupFiles: ['test/support/verify-fakes.setup.ts'],
    sequence: { sequencer: LongestFirst },
    // Three test files at a time on this 2-core machine. Vitest's default is one (cores - 1), and much of an
    // end-to-end file is waiting: for its subprocesses, a terminal, a sandbox's added latency. With two, the
    // cores were busy about 163% of the time; a third file fills some of the rest (Node 20 suite from a fresh
    // cache, one run each: 229 s with two, 216 s with three).
    maxWorkers: 3,
    // Limits against a hang, not promises of speed: on a 2-core machine shared with other jobs, a test that
    // takes 1 s alone can take ten times that (5 s and 10 s, vitest's defaults, failed tests that were fine).
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      {
        // Unit and end-to-end files share workers and their module graph instead of loading src/ afresh for each
        // file: loading was most of an in-process file's time (118 files: 225 s of tests, about 470 s of start-up
        // in a full run), and an end-to-end file runs main() in-process too. None changes process.env or mocks a
        // module; test/io/directories.test.ts changes the working directory and puts it back. As separate
        // projects they had workers of their own, each loading src/ again (about 3 s of CPU each, six workers).
        // A test that needs a module's first load says so (vi.resetModules, test/shared/undici.test.ts).
        extends: true,
        test: { name: 'main', include: ['test/**/*.test.ts'], exclude: ['test/fuzz/**'], isolate: false },
      },
      {
        // The fuzz suite changes the working directory (process.chdir) while it runs: a process of its own.
        extends: true,
        test: { name: 'fuzz', include: ['test/fuzz/**/*.test.ts'] },
      },
    ],
  },
});
