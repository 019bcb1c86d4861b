#!/usr/bin/env node
// Benchmark: sandbox start-up time and peak memory at 100,000 and 1,000,000 devices (targets at one million:
// start-up under 10 s, peak RSS under 2 GB), then paging through every device the admin can see at limit 500
// (what `devices list --all` does).
//   node bench/sandbox-startup.mjs               100,000 then 1,000,000 devices
//   node bench/sandbox-startup.mjs 250000 ...    other sizes
// Each size runs in a child process of its own, so its peak RSS is its own. The sandbox sources are
// TypeScript: they are bundled with esbuild into a temporary module first (under node_modules/.cache, so the
// bundle's imports of dependencies resolve).
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const TARGET_MS = 10_000;
const TARGET_RSS_BYTES = 2 * 1024 ** 3;
const self = fileURLToPath(import.meta.url);
const root = path.resolve(path.dirname(self), '..');

if (process.argv[2] === '--child') {
  await measure(process.argv[3], Number(process.argv[4]));
} else {
  const sizes = process.argv.length > 2 ? process.argv.slice(2).map(Number) : [100_000, 1_000_000];
  const cacheDir = path.join(root, 'node_modules/.cache');
  await mkdir(cacheDir, { recursive: true });
  const dir = await mkdtemp(path.join(cacheDir, 'fleetctl-bench-'));
  let failed = false;
  try {
    const bundle = path.join(dir, 'sandbox.mjs');
    await build({
      entryPoints: [path.join(root, 'src/sandbox/index.ts')],
      outfile: bundle,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      packages: 'external',
      logLevel: 'warning',
    });
    // the machine may be shared: when the process gets little of a core, wall times say more about the others
    console.log(`machine: ${os.cpus().length} cores, load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);
    for (const devices of sizes) {
      const line = execFileSync(process.execPath, [self, '--child', bundle, String(devices)], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
      const result = JSON.parse(line.trim().split('\n').at(-1));
      failed ||= report(result);
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  if (failed) process.exitCode = 1;
}

/** Prints one size's results; true when a target of the one-million world is missed. */
function report(r) {
  const mb = (bytes) => `${Math.round(bytes / 1024 ** 2)} MB`;
  const judged = r.devices >= 1_000_000;
  const slow = r.startupMs >= TARGET_MS;
  const big = r.peakRssBytes >= TARGET_RSS_BYTES;
  const verdict = (bad) => (judged ? (bad ? ' TOO MUCH' : ' OK') : '');
  console.log(`${r.devices.toLocaleString('en')} devices:`);
  console.log(`  start-up     ${r.startupMs} ms (CPU ${r.startupCpuMs} ms)${judged ? ` target < ${TARGET_MS} ms` : ''}${verdict(slow)}`);
  console.log(`  peak RSS     ${mb(r.peakRssBytes)} (after start-up ${mb(r.startupRssBytes)}, heap used ${mb(r.heapUsedBytes)})${judged ? ' target < 2048 MB' : ''}${verdict(big)}`);
  const share = r.startupCpuMs / Math.max(1, r.startupMs);
  if (share < 0.8) console.log(`  (start-up got ${Math.round(share * 100)}% of a core: the machine is busy; on an idle one it takes about its CPU time)`);
  console.log(`  paging       ${r.items} devices in ${r.pages} pages of 500: ${r.pagingMs} ms (${(r.pagingMs / r.pages).toFixed(1)} ms/page)`);
  return judged && (slow || big);
}

async function measure(bundle, devices) {
  const { startSandbox } = await import(pathToFileURL(bundle).href);
  const cpuMs = () => {
    const { user, system } = process.cpuUsage();
    return (user + system) / 1000;
  };
  const cpuBefore = cpuMs();
  const started = performance.now();
  const sandbox = await startSandbox({ port: 0, devices });
  const startupMs = Math.round(performance.now() - started);
  const startupCpuMs = Math.round(cpuMs() - cpuBefore);
  const startupRssBytes = process.memoryUsage().rss;
  const heapUsedBytes = process.memoryUsage().heapUsed;

  const health = await (await fetch(`${sandbox.baseUrl}/_sandbox/health`)).json();
  if (health.devices !== devices) throw new Error(`health says ${health.devices} devices, expected ${devices}`);
  const admin = sandbox.clients.find((c) => c.client_id === 'sandbox-admin');
  const tokenRes = await fetch(`${sandbox.authUrl}/connect/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'client_credentials', client_id: admin.client_id, client_secret: admin.client_secret }),
  });
  const { access_token: token } = await tokenRes.json();
  const pagingStarted = performance.now();
  let cursor = null;
  let pages = 0;
  let items = 0;
  do {
    const url = `${sandbox.baseUrl}/v1/devices?limit=500${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
    const page = await (await fetch(url, { headers: { authorization: `Bearer ${token}` } })).json();
    pages++;
    items += page.data.length;
    cursor = page.has_more ? page.next_cursor : null;
  } while (cursor);
  const pagingMs = Math.round(performance.now() - pagingStarted);
  await sandbox.close();
  // maxRSS is in kilobytes: the peak of this process (the bundle was made by the parent)
  const peakRssBytes = process.resourceUsage().maxRSS * 1024;
  console.log(JSON.stringify({ devices, startupMs, startupCpuMs, startupRssBytes, heapUsedBytes, peakRssBytes, pages, items, pagingMs }));
}
