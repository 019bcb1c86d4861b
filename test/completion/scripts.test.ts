// completions/ holds what `fleetctl completion SHELL` prints; a change to the command tree must regenerate them.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runCli, tempConfigDir } from './support/cli.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const FILES = { bash: 'fleetctl.bash', zsh: '_fleetctl', fish: 'fleetctl.fish' } as const;

async function completion(shell: string): Promise<string> {
  const result = await runCli(['completion', shell], { env: { FLEETCTL_CONFIG_DIR: tempConfigDir(), NO_COLOR: '1' } });
  expect(result.code).toBe(0);
  expect(result.stderr).toBe('');
  return result.stdout;
}

describe('committed completion scripts', () => {
  it.each(Object.entries(FILES))('%s matches completions/%s', async (shell, file) => {
    const committed = readFileSync(path.join(root, 'completions', file), 'utf8');
    const generated = await completion(shell);
    expect(generated === committed, `completions/${file} is out of date with the command tree: run \`npm run completions\` and commit the result`).toBe(true);
  });

  it('an unknown shell is a usage error', async () => {
    const result = await runCli(['completion', 'tcsh'], { env: { FLEETCTL_CONFIG_DIR: tempConfigDir() } });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("'tcsh' is invalid for argument 'shell'. Allowed choices are bash, zsh, fish.");
  });
});

describe('bash completion behaviour', () => {
  /** COMPREPLY after sourcing the script and completing the words typed so far (the last one partial). */
  async function complete(...words: string[]): Promise<string[]> {
    const script = await completion('bash');
    const program = `${script}
COMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')})
COMP_CWORD=${words.length - 1}
_fleetctl
printf '%s\\n' "\${COMPREPLY[@]}"`;
    return execFileSync('bash', ['--norc', '--noprofile', '-c', program], { encoding: 'utf8' }).split('\n').filter(Boolean);
  }

  it('fleetctl devices l → list (and the other devices verbs starting with l)', async () => {
    const words = await complete('fleetctl', 'devices', 'l');
    expect(words).toContain('list');
    expect(words.every((word) => word.startsWith('l'))).toBe(true);
    expect(await complete('fleetctl', 'devices', 'li')).toEqual(['list']);
  });

  it('global options before the group do not confuse it', async () => {
    expect(await complete('fleetctl', '--json', 'fleets', 'li')).toEqual(['list']);
  });

  it('fleetctl co → completion, config', async () => {
    expect((await complete('fleetctl', 'co')).sort()).toEqual(['completion', 'config']);
  });

  it('options after a verb, including the global ones', async () => {
    const options = await complete('fleetctl', 'fleets', 'list', '--');
    expect(options).toEqual(expect.arrayContaining(['--all', '--limit', '--max-items', '--cursor', '--output', '--json', '--help']));
  });
});
