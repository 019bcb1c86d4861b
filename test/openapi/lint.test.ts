// The served document passes redocly's recommended rules (redocly.yaml) with no error and no warning. The
// pinned local binary runs it offline: telemetry off (redocly.yaml), no update check, nothing fetched.
import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const REDOCLY = path.join(path.dirname(createRequire(import.meta.url).resolve('@redocly/cli/package.json')), 'bin/cli.js');

interface LintReport {
  totals: { errors: number; warnings: number; ignored: number };
  problems: { ruleId: string; message: string }[];
}

describe('redocly lint of src/openapi/v1.json', () => {
  it('has 0 errors, 0 warnings and nothing ignored under the recommended rules', { timeout: 60_000 }, async () => {
    const { stdout } = await promisify(execFile)(process.execPath, [REDOCLY, 'lint', 'src/openapi/v1.json', '--config', 'redocly.yaml', '--format', 'json'], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: ROOT, REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', REDOCLY_TELEMETRY: 'off' },
      maxBuffer: 16 * 1024 * 1024,
    }).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }));
    const report = JSON.parse(stdout) as LintReport;
    expect(report.problems.map((p) => `${p.ruleId}: ${p.message}`)).toEqual([]);
    expect(report.totals).toEqual({ errors: 0, warnings: 0, ignored: 0 });
  });
});
