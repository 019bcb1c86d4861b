// man/ holds the man pages `fleetctl help reference --man-dir` writes, one per command, generated from the
// command tree after a build (`npm run manual`, and `npm run completions`); package.json's "man" field lists them,
// so `npm install -g` puts them where `man` finds them. test/manual checks both match the command tree.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const MAN_DIR = 'man';

export function writeManual(root) {
  const dir = path.join(root, MAN_DIR);
  // a command that is gone leaves no page behind
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir);
  // an empty config store: the pages describe fleetctl, never the aliases of whoever builds it
  const config = mkdtempSync(path.join(os.tmpdir(), 'fleetctl-manual-'));
  try {
    execFileSync(process.execPath, [path.join(root, 'bin/fleetctl.js'), 'help', 'reference', '--man-dir', dir], { env: { ...process.env, NO_COLOR: '1', FLEETCTL_CONFIG_DIR: config }, stdio: 'ignore' });
  } finally {
    rmSync(config, { recursive: true, force: true });
  }
  const pages = readdirSync(dir).filter((file) => file.endsWith('.1')).sort().map((file) => `${MAN_DIR}/${file}`);
  const packageFile = path.join(root, 'package.json');
  const pkg = JSON.parse(readFileSync(packageFile, 'utf8'));
  pkg.man = pages;
  writeFileSync(packageFile, `${JSON.stringify(pkg, null, 2)}\n`);
}

if (process.argv[1] && import.meta.url.endsWith(path.basename(process.argv[1]))) {
  writeManual(path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..'));
}
