// The built CLI against the second service double: the same clean environment as test/e2e/harness.ts, pointed
// at the double as one of its clients, with a config folder of its own (tokens are cached there between runs).
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import { runCli, type CliOptions, type CliResult } from '../../e2e/harness.js';
import { startSecondService, type SecondClient, type SecondService, type SecondServiceOptions } from '../second-service.js';

export interface SecondHarness {
  svc: SecondService;
  configDir: string;
  cli(args: string[], opts?: Omit<CliOptions, 'client'> & { as?: SecondClient }): Promise<CliResult>;
  close(): Promise<void>;
}

export async function startSecondHarness(options: SecondServiceOptions = {}): Promise<SecondHarness> {
  const svc = await startSecondService(options);
  const configDir = mkdtempSync(path.join(os.tmpdir(), 'fleetctl-second-'));
  return {
    svc,
    configDir,
    cli: (args, opts = {}) => runCli(args, { ...opts, env: { ...svc.envFor(opts.as ?? svc.clients.admin, configDir), ...opts.env } }),
    async close() {
      await svc.close();
      rmSync(configDir, { recursive: true, force: true });
    },
  };
}

/** One double for the whole test file: started before its tests (handed to `started`), closed after them. */
export function useSecondHarness(started: (harness: SecondHarness) => void, options: SecondServiceOptions = {}): void {
  let harness: SecondHarness | undefined;
  beforeAll(async () => {
    harness = await startSecondHarness(options);
    started(harness);
  }, 60_000);
  afterAll(async () => {
    await harness?.close();
  });
}

/** The command and its result, for failure messages. */
export function report(args: string[], r: CliResult): string {
  return `fleetctl ${args.join(' ')}\nexit ${r.code}\nstdout:\n${r.stdout}\nstderr:\n${r.stderr}`;
}

/** Nothing leaked from a missing field or an object printed as text, on either stream. */
export function expectNoPlaceholders(args: string[], r: CliResult): void {
  for (const text of [r.stdout, r.stderr]) {
    expect(text, report(args, r)).not.toMatch(/\bundefined\b/);
    expect(text, report(args, r)).not.toContain('[object Object]');
    expect(text, report(args, r)).not.toMatch(/^\s+at .+:\d+:\d+\)?$/m);
  }
}

/** Exit 0, and clean output. */
export function expectOk(args: string[], r: CliResult): void {
  expect(r.code, report(args, r)).toBe(0);
  expectNoPlaceholders(args, r);
}

/** The documented failure: this exit code, nothing on stdout, one `Error:` line on stderr, no stack. */
export function expectFailure(args: string[], r: CliResult, code: number): void {
  expect(r.code, report(args, r)).toBe(code);
  expect(r.stdout, report(args, r)).toBe('');
  expect(r.stderr, report(args, r)).toMatch(/^Error: /m);
  expectNoPlaceholders(args, r);
}

/** Rows of a piped table (TSV): header cells and data rows. */
export function tsv(stdout: string): { header: string[]; rows: string[][] } {
  const [head = '', ...rest] = stdout.replace(/\n$/, '').split('\n');
  return { header: head.split('\t'), rows: rest.map((line) => line.split('\t')) };
}
