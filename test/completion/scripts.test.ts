// The generated scripts: completions/ holds what `fleetctl completion SHELL` prints, every value of the tree is
// marked, and bash and fish (through their own completion entry points, without a terminal) offer what they
// should. The pseudo-terminal tests in test/e2e/completion-shells.test.ts type into real shells.
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Argument, Command, Option } from 'commander';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempConfigDir } from '../support/cli.js';
import { buildProgram } from '../../src/main.js';
import { createDeps } from '../../src/factory.js';
import { IOStreams } from '../../src/io/streams.js';
import { valueCompletionOf } from '../../src/completion/values.js';
import { COMPLETE_COMMAND } from '../../src/completion/tree.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const FILES = { bash: 'fleetctl.bash', zsh: '_fleetctl', fish: 'fleetctl.fish' } as const;
const program = await buildProgram(createDeps({ io: IOStreams.forTest(), env: {} }, () => ({})));
const OUTPUT_CHOICES = program.options.find((o) => o.long === '--output')!.argChoices!;

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

  it('the zsh script is valid zsh', () => {
    execFileSync('zsh', ['-n', path.join(root, 'completions', FILES.zsh)]);
  });
});

describe('every value is marked by what it holds', () => {
  function everyValue(command: Command, where: string, out: { where: string; target: Option | Argument; name: string; placeholder: string }[] = []) {
    for (const option of command.options) out.push({ where, target: option, name: option.long ?? '', placeholder: /[<[]([\w-]+)/.exec(option.flags)?.[1] ?? '' });
    for (const argument of command.registeredArguments) out.push({ where, target: argument, name: argument.name(), placeholder: '' });
    for (const sub of command.commands) everyValue(sub, `${where} ${sub.name()}`, out);
    return out;
  }
  const values = everyValue(program, 'fleetctl');
  const expected = (name: string, placeholder: string): unknown => {
    if (['file', 'path'].includes(placeholder)) return 'file';
    if (placeholder === 'dir') return 'directory';
    if (name === '--fleet-id') return 'fleet-id';
    if (name === '--organization-id' || name === '--org') return 'organization-id';
    if (['--hardware-id', 'hardware-id', 'hardware-ids'].includes(name)) return 'hardware-id';
    if (name === '--profile' || name === 'profile') return 'profile';
    return undefined;
  };

  it('paths complete file (or directory) names, ids come from the API, profiles from the config store', () => {
    const wrong = values
      .filter((v) => expected(v.name, v.placeholder) !== undefined && valueCompletionOf(v.target) !== expected(v.name, v.placeholder))
      .map((v) => `${v.where} ${v.name}: ${JSON.stringify(valueCompletionOf(v.target))}`);
    expect(wrong).toEqual([]);
    expect(values.filter((v) => valueCompletionOf(v.target) === 'file').length).toBeGreaterThanOrEqual(8);
  });
});

/**
 * A folder with ./here (the working directory of the shells), ../design.json, ../desk/, and ../bin/fleetctl: a
 * stand-in that records how a script called the hidden command and answers two candidates.
 */
let work: string;
let fakeBin: string;

beforeAll(() => {
  work = mkdtempSync(path.join(os.tmpdir(), 'fleetctl-completion-'));
  mkdirSync(path.join(work, 'here'));
  mkdirSync(path.join(work, 'desk'));
  writeFileSync(path.join(work, 'design.json'), '{}');
  fakeBin = path.join(work, 'bin');
  mkdirSync(fakeBin);
  const fake = `#!/bin/sh
printf '%s\\n' "$@" > "${work}/bin/args"
if [ -n "$FAKE_ANSWER" ]; then printf "$FAKE_ANSWER\\n"; else printf 'HW-000001\\tVan 1\\nHW-000002\\n'; fi
`;
  writeFileSync(path.join(fakeBin, 'fleetctl'), fake);
  chmodSync(path.join(fakeBin, 'fleetctl'), 0o755);
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

const recordedArgs = () => readFileSync(path.join(fakeBin, 'args'), 'utf8').split('\n').slice(0, -1);

describe('bash, through its completion function', () => {

  /**
   * COMPREPLY after sourcing the script and completing at the end of the line. COMP_WORDS are split as bash
   * splits them: at spaces, and around ':' and '=' (COMP_WORDBREAKS), each of which is a word of its own.
   */
  async function complete(line: string, answer?: string): Promise<string[]> {
    const words = line.split(/\s+/).flatMap((word) => word.split(/([:=])/).filter((piece, i, all) => piece !== '' || all.length === 1));
    const script = path.join(root, 'completions', FILES.bash);
    const quoted = (text: string) => `'${text}'`;
    const program = `source '${script}'
COMP_LINE=${quoted(line)}
COMP_POINT=${line.length}
COMP_WORDS=(${words.map(quoted).join(' ')})
COMP_CWORD=${words.length - 1}
_fleetctl
printf '%s\\n' "\${COMPREPLY[@]}"`;
    const env = { PATH: `${fakeBin}:${process.env.PATH}`, ...(answer === undefined ? {} : { FAKE_ANSWER: answer }) };
    return execFileSync('bash', ['--norc', '--noprofile', '-c', program], { encoding: 'utf8', cwd: path.join(work, 'here'), env }).split('\n').filter(Boolean);
  }

  it('commands: fleetctl devices l → list, and no hidden command', async () => {
    expect(await complete('fleetctl devices li')).toEqual(['list']);
    expect((await complete('fleetctl co', 'co-night\\talias: devices list')).sort()).toEqual(['co-night', 'completion', 'config']);
    expect(await complete('fleetctl ')).not.toContain(COMPLETE_COMMAND);
    expect(await complete('fleetctl --json fleets li')).toEqual(['list']);
  });

  it("the first word may be one of the user's aliases, asked of the hidden command (they change)", async () => {
    expect(await complete('fleetctl --profile p night', 'night-reboot\\talias: devices reboot')).toEqual(['night-reboot']);
    expect(recordedArgs()).toEqual([COMPLETE_COMMAND, 'alias-or-extension', '--', '--profile', 'p', 'night']);
    // after a command, no alias is asked for
    expect(await complete('fleetctl devices li', 'night-reboot')).toEqual(['list']);
  });

  it('flags after a verb, including the global ones', async () => {
    const options = await complete('fleetctl fleets list --');
    expect(options).toEqual(expect.arrayContaining(['--all', '--limit', '--max-items', '--cursor', '--output', '--json', '--help']));
  });

  it("-o offers the output formats of the option's own choices, also as --output=", async () => {
    expect((await complete('fleetctl devices list -o ')).sort()).toEqual([...OUTPUT_CHOICES].sort());
    expect(await complete('fleetctl --output=nd')).toEqual(['ndjson']);
    expect((await complete('fleetctl --output=')).sort()).toEqual(OUTPUT_CHOICES.map((c) => `=${c}`).sort());
  });

  it('fixed values: shells, topic types (comma lists too), event types, profile keys, scopes, HTTP methods', async () => {
    expect((await complete('fleetctl completion ')).sort()).toEqual(['bash', 'fish', 'zsh']);
    expect(await complete('fleetctl webhook-config topics set live')).toEqual(['live_gps']);
    expect(await complete('fleetctl webhook-config create --topics events,al')).toEqual(['events,alarms']);
    expect(await complete('fleetctl webhook trigger alarm')).toEqual(['alarm.triggered']);
    expect(await complete('fleetctl sandbox emit media')).toEqual(['media.ready']);
    expect(await complete('fleetctl config set client_')).toEqual(['client_id', 'client_secret', 'client_secret_command']);
    expect(await complete('fleetctl auth token --scope devices_r')).toEqual(['devices_read']);
    expect(await complete('fleetctl api PA')).toEqual(['PATCH']);
  });

  it('file names after a file flag, directories only after --dir', async () => {
    expect((await complete('fleetctl devices reboot --from-file ../des')).sort()).toEqual(['../design.json', '../desk']);
    expect(await complete('fleetctl devices reboot --from-file ../desi')).toEqual(['../design.json']);
    expect((await complete('fleetctl webhook-config apply -f ../')).sort()).toEqual(['../bin', '../design.json', '../desk', '../here']);
    expect(await complete('fleetctl devices media download HW-1 --dir ../des')).toEqual(['../desk']);
  });

  it('ids and profiles come from the hidden command: the words so far and the prefix, descriptions left out', async () => {
    expect(await complete('fleetctl --profile p devices reboot HW-000002 HW-0')).toEqual(['HW-000001', 'HW-000002']);
    expect(recordedArgs()).toEqual([COMPLETE_COMMAND, 'hardware-id', '--', '--profile', 'p', 'devices', 'reboot', 'HW-000002', 'HW-0']);
    await complete('fleetctl devices list --fleet-id ');
    expect(recordedArgs()).toEqual([COMPLETE_COMMAND, 'fleet-id', '--', 'devices', 'list', '--fleet-id', '']);
    await complete('fleetctl config use st');
    expect(recordedArgs()).toEqual([COMPLETE_COMMAND, 'profile', '--', 'config', 'use', 'st']);
  });

  it("words bash splits at ':' and '=' are joined again: URLs, ids with colons, --flag=value", async () => {
    expect(await complete('fleetctl --base-url http://127.0.0.1:4010 devices get HW')).toEqual(['HW-000001', 'HW-000002']);
    expect(recordedArgs()).toEqual([COMPLETE_COMMAND, 'hardware-id', '--', '--base-url', 'http://127.0.0.1:4010', 'devices', 'get', 'HW']);
    // bash replaces only what follows the last ':' of the word: the candidates are cut to fit.
    expect(await complete('fleetctl devices get AA:BB:0', 'AA:BB:01\tcamera\nAA:BB:02')).toEqual(['01', '02']);
    expect(recordedArgs()).toEqual([COMPLETE_COMMAND, 'hardware-id', '--', 'devices', 'get', 'AA:BB:0']);
    expect(await complete('fleetctl devices list --hardware-id=HW')).toEqual(['HW-000001', 'HW-000002']);
    expect(recordedArgs()).toEqual([COMPLETE_COMMAND, 'hardware-id', '--', 'devices', 'list', 'HW']);
    expect(await complete('fleetctl --profile=p devices events ')).toEqual(['HW-000001', 'HW-000002']);
    expect(recordedArgs()).toEqual([COMPLETE_COMMAND, 'hardware-id', '--', '--profile=p', 'devices', 'events', '']);
  });

  it('positions count past flag values: the media ids after a hardware id get nothing', async () => {
    expect(await complete('fleetctl devices media download --from 2024-01-01 HW')).toEqual(['HW-000001', 'HW-000002']);
    expect(await complete('fleetctl devices media download HW-000001 m')).toEqual([]);
    expect(await complete('fleetctl devices list --limit ')).toEqual([]);
  });
});

describe('fish, through `complete -C`', () => {
  function complete(line: string): string[] {
    const script = path.join(root, 'completions', FILES.fish);
    const env = { PATH: `${fakeBin}:${process.env.PATH}` };
    const out = execFileSync('fish', ['--no-config', '-c', `source '${script}'; complete -C '${line}'`], { encoding: 'utf8', cwd: path.join(work, 'here'), env });
    return out.split('\n').filter(Boolean);
  }

  it('commands, flags and fixed values', () => {
    expect(complete('fleetctl devices li')).toEqual(['list']);
    expect(complete('fleetctl fleets list --max')).toEqual(expect.arrayContaining(['--max-items', '--max-retries', '--max-retry-wait']));
    expect(complete('fleetctl -o ').sort()).toEqual([...OUTPUT_CHOICES].sort());
    expect(complete('fleetctl --output=nd')).toEqual(['--output=ndjson']);
    expect(complete('fleetctl completion ').sort()).toEqual(['bash', 'fish', 'zsh']);
    expect(complete('fleetctl webhook-config create --topics events,al')).toEqual(['events,alarms']);
    expect(complete('fleetctl ')).not.toContain(COMPLETE_COMMAND);
  });

  it("the first word may be one of the user's aliases, with what it expands to", () => {
    const env = { PATH: `${fakeBin}:${process.env.PATH}`, FAKE_ANSWER: 'night-reboot\\talias: devices reboot' };
    const script = path.join(root, 'completions', FILES.fish);
    const out = execFileSync('fish', ['--no-config', '-c', `source '${script}'; complete -C 'fleetctl nig'`], { encoding: 'utf8', cwd: path.join(work, 'here'), env });
    expect(out.split('\n').filter(Boolean)).toEqual(['night-reboot\talias: devices reboot']);
    expect(recordedArgs()).toEqual([COMPLETE_COMMAND, 'alias-or-extension', '--', 'nig']);
  });

  it('ids come from the hidden command, with their descriptions; --flag=value keeps its flag', () => {
    expect(complete('fleetctl devices reboot HW-0')).toEqual(['HW-000001\tVan 1', 'HW-000002']);
    expect(recordedArgs()).toEqual([COMPLETE_COMMAND, 'hardware-id', '--', 'devices', 'reboot', 'HW-0']);
    expect(complete('fleetctl devices list --hardware-id=HW')).toEqual(['--hardware-id=HW-000001\tVan 1', '--hardware-id=HW-000002']);
    expect(recordedArgs()).toEqual([COMPLETE_COMMAND, 'hardware-id', '--', 'devices', 'list', 'HW']);
  });

  it('file names, and directories for --dir', () => {
    expect(complete('fleetctl devices reboot --from-file ../des')).toEqual(['../design.json', '../desk/']);
    expect(complete('fleetctl devices media download HW-1 --dir ../des').map((c) => c.split('\t')[0])).toEqual(['../desk/']);
  });
});

