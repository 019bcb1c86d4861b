// fleetctl against the second service double (in-process or as a process, as test/e2e/harness.ts decides), pointed
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

/** A webhook configuration for the admin's organization, created straight at the service when there is none. */
export async function ensureWebhookConfig(svc: SecondService): Promise<void> {
  const org = svc.clients.admin.organization_id;
  if (svc.webhookKey(org) !== undefined) return;
  const created = await svc.call(svc.clients.admin, 'PUT', `/v1/organizations/${org}/webhook-config`, {
    body: { is_enabled: false, topics: [{ type: 'events', delivery: { url: 'https://hooks.example.com/a' } }, { type: 'alarms', is_enabled: false, delivery: { url: 'https://hooks.example.com/b' } }] },
  });
  expect(created.status).toBe(201);
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

/** Rows of RFC 4180 CSV as fleetctl prints it: quoted fields may hold commas, quotes ("") and line breaks. */
export function csvRows(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') (field += '"'), i++;
      else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') row.push(field), (field = '');
    else if (c === '\n' || (c === '\r' && text[i + 1] === '\n')) {
      if (c === '\r') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += c;
  }
  if (field !== '' || row.length > 0) rows.push([...row, field]);
  return rows;
}
