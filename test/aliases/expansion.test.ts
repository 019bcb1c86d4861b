// What an alias makes of its arguments: $N filled with whole words, the rest appended, nothing split again; and
// the line main.ts parses once the alias is expanded, with the store read only when the line may hold one.
import { describe, expect, it } from 'vitest';
import { expandAlias, positionalsOf, splitExpansion } from '../../src/aliases/expansion.js';
import { aliasesFor, aliasesSection, aliasRanLine, expandedLine, shellAliasEnv } from '../../src/aliases/line.js';
import { memoryConfigStore, type ConfigStore } from '../../src/config/store.js';
import { UsageError } from '../../src/errors.js';
import { Command } from 'commander';
import { operandsIn } from '../../src/commands/index.js';

const words = (name: string, expansion: string, args: string[]) => {
  const expanded = expandAlias(name, expansion, args);
  if (expanded.kind !== 'command') throw new Error('expected a command alias');
  return expanded.words;
};

describe('splitting an expansion into words', () => {
  it('splits at blanks, and keeps what quotes and backslashes hold as one word, $N untouched', () => {
    expect(splitExpansion('devices list  --fleet-id $1')).toEqual(['devices', 'list', '--fleet-id', '$1']);
    expect(splitExpansion(`devices list --where 'fleet:"North 1" stale' --columns "a b"`)).toEqual(['devices', 'list', '--where', 'fleet:"North 1" stale', '--columns', 'a b']);
    expect(splitExpansion(String.raw`api GET a\ b "q\"x" ''`)).toEqual(['api', 'GET', 'a b', 'q"x', '']);
  });

  it('refuses an unclosed quote, naming it', () => {
    expect(() => splitExpansion(`devices list --where 'stale`)).toThrow(/unclosed '/);
  });
});

describe('expanding an alias', () => {
  it('puts each argument where $N names it, and appends the ones no $N names', () => {
    expect(words('fd', 'devices list --fleet-id $1', ['F-1', '--limit', '5'])).toEqual(['devices', 'list', '--fleet-id', 'F-1', '--limit', '5']);
    expect(words('x', 'devices reboot $2 --reason $1', ['why', 'HW-1', 'HW-2'])).toEqual(['devices', 'reboot', 'HW-1', '--reason', 'why', 'HW-2']);
    expect(words('ls', 'devices list', ['--json'])).toEqual(['devices', 'list', '--json']);
  });

  it('fills $N inside a word, and a $N named twice takes the argument twice', () => {
    expect(words('since', 'events list --since=$1 --until=$1', ['2024-01-01'])).toEqual(['events', 'list', '--since=2024-01-01', '--until=2024-01-01']);
  });

  it('never splits an argument again: blanks, quotes, globs and $N inside it stay as they are', () => {
    const tricky = [`fleet:"North 1" stale`, "it's * $2 $(rm -rf /)", ''];
    expect(words('w', 'devices list --where $1 --reason $2 --x $3', tricky)).toEqual(['devices', 'list', '--where', tricky[0], '--reason', tricky[1], '--x', '']);
    expect(words('a', 'devices get', ['HW 1', '$1'])).toEqual(['devices', 'get', 'HW 1', '$1']);
  });

  it('refuses fewer arguments than the highest $N, naming the alias (a usage error)', () => {
    expect(positionalsOf('devices reboot $1 --reason $3')).toBe(3);
    const error = (() => {
      try {
        expandAlias('rb', 'devices reboot $1 --reason $3', ['HW-1']);
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(UsageError);
    expect((error as Error).message).toBe('alias rb needs 3 arguments ($1 to $3), got 1');
  });

  it('a ! expansion is a script for the shell, its arguments passed as they are', () => {
    expect(expandAlias('n', '!fleetctl devices list | wc -l', ['a b', 'c'])).toEqual({ kind: 'shell', script: 'fleetctl devices list | wc -l', args: ['a b', 'c'] });
  });
});

// where a line's command is, after the program's global flags (some of them: enough for these lines)
const root = new Command().option('--profile <name>').option('--base-url <url>').option('--ca-file <file>').option('--debug').option('-o, --output <format>').option('--json').option('--sandbox');
const operandAt = (argv: string[]) => operandsIn(root, argv).at;

describe('the line main.ts parses', () => {
  const aliases = { fd: 'devices list --fleet-id $1', sh: '!echo "$1"' };

  it('an expansion that starts with another alias (after global flags) is expanded again, and says its chain', () => {
    const chained = { ...aliases, mine: '--profile lab fd F1 --limit 5', again: 'mine' };
    const line = expandedLine(['node', 'fleetctl', 'again', '--json'], 2, chained, operandAt);
    expect(line.argv).toEqual(['node', 'fleetctl', '--profile', 'lab', 'devices', 'list', '--fleet-id', 'F1', '--limit', '5', '--json']);
    expect(aliasRanLine(line.alias!)).toBe('alias again → mine → fd expanded to: fleetctl --profile lab devices list --fleet-id F1 --limit 5 --json');
    // a shell alias at the end of the chain gets the flags before it, given by the alias before it
    const shell = expandedLine(['node', 'fleetctl', 'say', 'hi'], 2, { ...aliases, say: '--profile lab sh' }, operandAt);
    expect(shell.alias!.expanded).toEqual({ kind: 'shell', script: 'echo "$1"', args: ['hi'] });
    expect(shellAliasEnv(shell.alias!, {}, '/f')).toMatchObject({ FLEETCTL_PROFILE: 'lab' });
  });

  it('an alias that reaches itself is exit 2 naming the chain, before anything runs', () => {
    const looping = { a: 'b --x', b: '--json c', c: 'a list', d: 'd' };
    const attempt = () => expandedLine(['node', 'fleetctl', 'a'], 2, looping, operandAt);
    expect(attempt).toThrow(UsageError);
    expect(attempt).toThrow('alias a reaches itself: a → b → c → a');
    expect(() => expandedLine(['node', 'fleetctl', 'd'], 2, looping, operandAt)).toThrow('alias d reaches itself: d → d');
  });

  it('keeps the global flags before the alias, and leaves a line without one as it was', () => {
    const argv = ['node', 'fleetctl', '--profile', 'p', 'fd', 'F 1', '--json'];
    const line = expandedLine(argv, 4, aliases, operandAt);
    expect(line.argv).toEqual(['node', 'fleetctl', '--profile', 'p', 'devices', 'list', '--fleet-id', 'F 1', '--json']);
    expect(aliasRanLine(line.alias!)).toBe("alias fd expanded to: fleetctl --profile p devices list --fleet-id 'F 1' --json");
    const plain = ['node', 'fleetctl', 'devices', 'list'];
    expect(expandedLine(plain, 2, aliases, operandAt)).toEqual({ argv: plain });
    expect(expandedLine(['node', 'fleetctl', 'constructor'], 2, aliases, operandAt)).toEqual({ argv: ['node', 'fleetctl', 'constructor'] });
  });

  it('a shell alias says the command that ran, and gets the flags before its name as FLEETCTL_* variables', () => {
    const line = expandedLine(['node', 'fleetctl', '--profile', 'lab', '--base-url=http://127.0.0.1:4010', 'sh', "it's"], 5, aliases, operandAt);
    expect(line.alias!.expanded.kind).toBe('shell');
    expect(aliasRanLine(line.alias!)).toBe(`alias sh expanded to: sh -c 'echo "$1"' sh 'it'\\''s'`);
    const env = shellAliasEnv(line.alias!, { FLEETCTL_PROFILE: 'other', HOME: '/h' }, '/bin/fleetctl');
    expect(env).toMatchObject({ FLEETCTL_PROFILE: 'lab', FLEETCTL_BASE_URL: 'http://127.0.0.1:4010', FLEETCTL_ALIAS: 'sh', FLEETCTL_EXECUTABLE: '/bin/fleetctl', HOME: '/h' });
    expect(env.FLEETCTL_AUTH_URL).toBeUndefined();
    const debug = expandedLine(['node', 'fleetctl', '--debug', '--ca-file', '/ca.pem', 'sh'], 5, aliases, operandAt);
    expect(shellAliasEnv(debug.alias!, {}, '/f')).toMatchObject({ FLEETCTL_DEBUG: '1', FLEETCTL_CA_FILE: '/ca.pem' });
  });

  it('refuses a global flag before a shell alias that no variable would carry to its fleetctl', () => {
    for (const before of [['--sandbox'], ['-o', 'json'], ['--json']]) {
      const line = expandedLine(['node', 'fleetctl', ...before, 'sh'], 2 + before.length, aliases, operandAt);
      expect(() => shellAliasEnv(line.alias!, {}, '/f')).toThrow(`${before[0]} before the shell alias sh would not reach the fleetctl its script runs`);
    }
  });

  it('reads the config store only when the first word is not a built-in command, or for help', async () => {
    let reads = 0;
    const store = memoryConfigStore({ aliases: { fd: 'devices list' } });
    const config = async (): Promise<ConfigStore> => {
      reads++;
      return store;
    };
    const builtIns = new Set(['devices', 'help']);
    expect(await aliasesFor('devices', builtIns, config)).toEqual({});
    expect(reads).toBe(0);
    expect({ ...(await aliasesFor('fd', builtIns, config)) }).toEqual({ fd: 'devices list' });
    expect({ ...(await aliasesFor(undefined, builtIns, config)) }).toEqual({ fd: 'devices list' });
    expect({ ...(await aliasesFor('help', builtIns, config)) }).toEqual({ fd: 'devices list' });
    expect(reads).toBe(3);
  });

  it('help is shown whatever the store holds; an alias run with a store that cannot be read says why', async () => {
    const broken = async (): Promise<ConfigStore> => {
      throw new Error('the config store is corrupted');
    };
    expect(await aliasesFor(undefined, new Set(), broken)).toEqual({});
    await expect(aliasesFor('fd', new Set(), broken)).rejects.toThrow('corrupted');
  });

  it('lists the aliases in a section of their own, shell ones marked', () => {
    expect(aliasesSection({})).toBe('');
    expect(aliasesSection(aliases)).toBe('Aliases (fleetctl alias list):\n  fd  devices list --fleet-id $1\n  sh  (shell) echo "$1"\n\n');
  });
});
