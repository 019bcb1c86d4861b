#!/usr/bin/env node
// Benchmark: sandbox start-up with 100,000 devices (target: under 10 s), then paging through every
// device the admin can see at limit 500 (what `devices list --all` does).
//   node bench/sandbox-startup.mjs [devices=100000]
// The sandbox sources are TypeScript: they are bundled with esbuild into a temporary module first (under
// node_modules/.cache, so the bundle's imports of dependencies resolve).
import { build } from 'esbuild';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const TARGET_MS = 10_000;
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const devices = Number(process.argv[2] ?? 100_000);

const cacheDir = path.join(root, 'node_modules/.cache');
await mkdir(cacheDir, { recursive: true });
const dir = await mkdtemp(path.join(cacheDir, 'fleetctl-bench-'));
try {
  const outfile = path.join(dir, 'sandbox.mjs');
  await build({
    entryPoints: [path.join(root, 'src/sandbox/index.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    logLevel: 'warning',
  });
  const { startSandbox } = await import(pathToFileURL(outfile).href);

  const started = performance.now();
  const sandbox = await startSandbox({ port: 0, devices });
  const startupMs = performance.now() - started;

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
  const pagingMs = performance.now() - pagingStarted;
  await sandbox.close();

  const ok = startupMs < TARGET_MS;
  console.log(`sandbox start-up with ${devices} devices: ${Math.round(startupMs)} ms (target < ${TARGET_MS} ms) ${ok ? 'OK' : 'TOO SLOW'}`);
  console.log(`paged ${items} devices in ${pages} pages of 500: ${Math.round(pagingMs)} ms (${(pagingMs / pages).toFixed(1)} ms/page)`);
  if (!ok) process.exitCode = 1;
} finally {
  await rm(dir, { recursive: true, force: true });
}
