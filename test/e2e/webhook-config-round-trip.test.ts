// What `webhook-config get` prints is a desired-state file: piped back into diff and apply (JSON and YAML),
// it means "no change", and the members fleetctl does not manage are named once on stderr as left alone.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type CliResult, type SandboxHarness } from './harness.js';

let h: SandboxHarness;

beforeAll(async () => {
  h = await startHarness();
}, 60_000);

afterAll(async () => {
  await h?.close();
});

const cli = (args: string[], input?: string): Promise<CliResult> => h.cli(['webhook-config', ...args, '--debug'], { input });
const mutations = (stderr: string): string[] => [...stderr.matchAll(/^\[debug\] > (PUT|PATCH|DELETE|POST) \S*\/v1\//gm)].map((m) => m[1]!);
const NOTE =
  "Note: stdin: left alone: organization_id, auth_key_hint, created_at, updated_at, etag (members of the service's configuration that fleetctl does not manage).";

describe('webhook-config round trip', { timeout: 60_000 }, () => {
  beforeAll(async () => {
    const desired = JSON.stringify({
      is_enabled: true,
      topics: [
        { type: 'events', delivery: { url: 'https://hooks.example.com/fleet' } },
        { type: 'alarms', is_enabled: false, delivery: { url: 'https://hooks.example.com/alarms' } },
      ],
    });
    const created = await cli(['apply', '-f', '-'], desired);
    expect(created.code, created.stderr).toBe(0);
  });

  it('get -o json | diff -f -: no differences, one note naming the members left alone', async () => {
    const got = await cli(['get', '-o', 'json']);
    expect(got.code).toBe(0);
    expect(JSON.parse(got.stdout)).toHaveProperty('etag');
    const diff = await cli(['diff', '-f', '-', '-o', 'json'], got.stdout);
    expect(diff.code, diff.stderr).toBe(0);
    expect(JSON.parse(diff.stdout)).toEqual([]);
    expect(diff.stderr.split('\n').filter((line) => line.startsWith('Note:'))).toEqual([NOTE]);
  });

  it('get -o yaml | apply -f -: nothing to change, no mutation sent', async () => {
    const got = await cli(['get', '-o', 'yaml']);
    expect(got.code).toBe(0);
    expect(got.stdout).toMatch(/^auth_key_hint: /m);
    const apply = await cli(['apply', '-f', '-'], got.stdout);
    expect(apply.code, apply.stderr).toBe(0);
    expect(apply.stderr).toContain(NOTE);
    expect(apply.stderr).toContain('No changes: the webhook configuration of organization');
    expect(mutations(apply.stderr)).toEqual([]);
  });

  it('an edited get -o yaml applies the edit only', async () => {
    const got = await cli(['get', '-o', 'yaml']);
    const edited = got.stdout.replace(/^is_enabled: true$/m, 'is_enabled: false');
    expect(edited).not.toBe(got.stdout);
    const apply = await cli(['apply', '-f', '-'], edited);
    expect(apply.code, apply.stderr).toBe(0);
    expect(mutations(apply.stderr)).toEqual(['PATCH']);
    const after = JSON.parse((await cli(['get', '-o', 'json'])).stdout) as { is_enabled: boolean; topics: unknown[] };
    expect(after.is_enabled).toBe(false);
    expect(after.topics).toHaveLength(2);
  });

  it('a member that neither fleetctl manages nor the configuration has is still refused, with the nearest name', async () => {
    const got = JSON.parse((await cli(['get', '-o', 'json'])).stdout) as Record<string, unknown>;
    const r = await cli(['diff', '-f', '-'], JSON.stringify({ ...got, auth_key: 'x' }));
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('Error: stdin: auth_key: is not a known member (did you mean auth_key_hint?)');
  });
});
