// Against the second service double (test/support/second-service.ts): a view prints no member the service never
// sent, and behaviour follows the statuses the spec states, not problem codes it leaves unshown (its catalog is
// "not shown"): a 404 means "none" whatever code the service puts in it.
import { spawn } from 'node:child_process';
import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { type SecondService } from '../support/second-service.js';
import { ensureWebhookConfig, expectOk, report, useSecondHarness, type SecondHarness } from '../support/second-service/harness.js';
import { BIN } from './harness.js';

let h: SecondHarness;
let svc: SecondService;

useSecondHarness((started) => {
  h = started;
  svc = started.svc;
});

describe('webhook-config against this service', { timeout: 120_000 }, () => {
  it('webhook-config get: the piped view shows no member the service did not send', async () => {
    await ensureWebhookConfig(svc);
    const raw = await svc.call(svc.clients.admin, 'GET', `/v1/organizations/${svc.clients.admin.organization_id}/webhook-config`);
    const r = await h.cli(['webhook-config', 'get']);
    expectOk(['webhook-config', 'get'], r);
    const keys = r.stdout.trimEnd().split('\n').map((line) => line.split('\t')[0]!.split('.')[0]!);
    for (const key of keys) expect([...Object.keys(raw.body), 'etag'], report(['webhook-config', 'get'], r)).toContain(key);
    expect(r.stdout).not.toMatch(/\t$/m);
  });

  it('apply with no configuration yet creates it: the service\'s 404 means "none" whatever its code (the spec names none)', async () => {
    const desired = JSON.stringify({ is_enabled: false, topics: [{ type: 'media', delivery: { url: 'https://hooks.example.com/m' } }] });
    const args = ['webhook-config', 'apply', '-f', '-'];
    const r = await h.cli(args, { input: desired, as: svc.clients.child });
    expectOk(args, r);
    expect(svc.webhookKey(svc.clients.child.organization_id)).toBeDefined();
  });

  it('apply with several mutations sends the ETag of the re-read after each (spec), not the one its answer carries', async () => {
    const topic = (type: string, url: string) => ({ type, delivery: { url } });
    const args = ['webhook-config', 'apply', '-f', '-'];
    // create disabled, then enable: two mutations; then a topic set and a topic removed: two more
    // the previous test left a media topic, which this file drops
    const first = await h.cli([...args, '--yes'], { input: JSON.stringify({ is_enabled: true, topics: [topic('events', 'https://hooks.example.com/e')] }), as: svc.clients.child });
    expectOk(args, first);
    // the events topic is removed: a script confirms it with --yes
    const refused = await h.cli(args, { input: JSON.stringify({ is_enabled: true, topics: [topic('alarms', 'https://hooks.example.com/a')] }), as: svc.clients.child });
    expect([refused.code, refused.stdout, refused.stderr.split('\n')[0]]).toEqual([2, '', 'Error: nothing applied: stdin removes the events topic: confirmation required']);
    const second = await h.cli([...args, '--yes'], { input: JSON.stringify({ is_enabled: true, topics: [topic('alarms', 'https://hooks.example.com/a')] }), as: svc.clients.child });
    expectOk(args, second);
    expect(second.stderr).toMatch(/Applied 2 changes/);
    const raw = await svc.call(svc.clients.child, 'GET', `/v1/organizations/${svc.clients.child.organization_id}/webhook-config`);
    expect(raw.body).toMatchObject({ is_enabled: true, topics: [{ type: 'alarms', delivery: { url: 'https://hooks.example.com/a' } }] });
  });
});

describe('last-position --watch with this service\'s 404', { timeout: 60_000 }, () => {
  it('waits while the service has no live position (spec: 404 when none is available, whatever the code), then prints it', async () => {
    const env = svc.envFor(svc.clients.admin, h.configDir);
    const child = spawn(process.execPath, [BIN, 'devices', 'last-position', 'TLM-00002', '--watch', '--interval', '1s'], {
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? os.tmpdir(), CI: 'true', NO_COLOR: '1', ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    const exited = new Promise<number | null>((ok) => child.on('close', ok));
    const until = async (what: () => boolean) => {
      for (const started = Date.now(); !what(); await new Promise((ok) => setTimeout(ok, 100))) {
        if (child.exitCode !== null || Date.now() - started > 15_000) throw new Error(`exit ${child.exitCode}\nstdout: ${stdout}\nstderr: ${stderr}`);
      }
    };
    try {
      await until(() => /waiting/.test(stderr));
      const fix = { hw: 'TLM-00002', fix: { lat: 60.39, lon: 5.32 }, bearing_deg: 90, kmh: 12, fixed_at: new Date().toISOString(), valid: true };
      svc.state.lastPosition.set('TLM-00002', fix);
      await until(() => stdout.includes('\n'));
      expect(JSON.parse(stdout.split('\n')[0]!)).toEqual(fix);
    } finally {
      child.kill('SIGINT');
      await exited;
    }
  });
});

