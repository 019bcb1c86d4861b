// The environment an extension gets (the flags before its name as variables, the profile's context resolved as
// fleetctl resolves it), and how PATH is searched: the first executable of a name, and no name that is a path.
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { extensionEnv, extensionLine } from '../../src/extensions/launch.js';
import { extensionsOnPath, findExtension } from '../../src/extensions/path-lookup.js';
import { memoryConfigStore } from '../../src/config/store.js';
import { tempDir } from '../support/temp-dir.js';

const data = memoryConfigStore({ current_profile: 'lab', profiles: { lab: { base_url: 'https://api.lab.test/', auth_url: 'https://auth.lab.test' }, prod: { base_url: 'https://api.prod.test' } } }).read();
const line = (before: string[]) => ({ extension: { name: 'report', path: '/bin/fleetctl-report' }, before, args: [] });

describe('extensionEnv', () => {
  it('the current profile and its endpoints when nothing is given; table output', () => {
    const env = extensionEnv(line([]), { HOME: '/h', FLEETCTL_CLIENT_SECRET: 's3cret' }, data, '/opt/fleetctl');
    expect(env).toMatchObject({ HOME: '/h', FLEETCTL_PROFILE: 'lab', FLEETCTL_BASE_URL: 'https://api.lab.test', FLEETCTL_AUTH_URL: 'https://auth.lab.test', FLEETCTL_OUTPUT: 'table', FLEETCTL_EXTENSION: 'report', FLEETCTL_EXECUTABLE: '/opt/fleetctl' });
    expect(env.FLEETCTL_NO_COLOR).toBeUndefined();
  });

  it('flags before the name win, in every spelling; the auth URL follows the base URL when none is set', () => {
    const env = extensionEnv(line(['--profile=prod', '-ojson', '--no-color', '--no-input', '--debug']), {}, data, '/f');
    expect(env).toMatchObject({ FLEETCTL_PROFILE: 'prod', FLEETCTL_BASE_URL: 'https://api.prod.test', FLEETCTL_AUTH_URL: 'https://api.prod.test', FLEETCTL_OUTPUT: 'json', NO_COLOR: '1', FLEETCTL_NO_COLOR: '1', FLEETCTL_NO_INPUT: '1', FLEETCTL_DEBUG: '1' });
    expect(extensionEnv(line(['--json', '--base-url', 'https://other.test']), {}, data, '/f')).toMatchObject({ FLEETCTL_OUTPUT: 'json', FLEETCTL_BASE_URL: 'https://other.test' });
    expect(extensionEnv(line(['--output', 'csv']), {}, data, '/f').FLEETCTL_OUTPUT).toBe('csv');
  });

  it('refuses what would not reach the extension, a bad format and a profile that does not exist', () => {
    expect(() => extensionEnv(line(['--columns', 'id']), {}, data, '/f')).toThrow('--columns before the extension report would not reach it');
    expect(() => extensionEnv(line(['-o', 'xml']), {}, data, '/f')).toThrow(/xml/);
    expect(() => extensionEnv(line(['--profile', 'lba']), {}, data, '/f')).toThrow('no profile lba; did you mean lab?');
  });
});

describe('PATH', () => {
  it('finds the first executable of a name, lists each name once, and takes no name that is a path', () => {
    const [first, second] = [tempDir('fleetctl-path-a-'), tempDir('fleetctl-path-b-')];
    const put = (folder: string, file: string, mode: number) => {
      writeFileSync(path.join(folder, file), '#!/bin/sh\n');
      chmodSync(path.join(folder, file), mode);
    };
    put(first, 'fleetctl-report', 0o644);
    put(second, 'fleetctl-report', 0o755);
    put(second, 'fleetctl-audit', 0o755);
    put(second, 'fleetctl-', 0o755);
    mkdirSync(path.join(first, 'fleetctl-folder'));
    const env = { PATH: [first, '', 'relative/bin', second].join(path.delimiter) };
    expect(findExtension('report', env)).toEqual({ name: 'report', path: path.join(second, 'fleetctl-report') });
    expect(findExtension('folder', env)).toBeUndefined();
    expect(findExtension('../fleetctl-report', env)).toBeUndefined();
    expect(extensionsOnPath(env).map((e) => e.name)).toEqual(['audit', 'report']);
    expect(extensionLine(['node', 'fleetctl', '--json', 'audit', '--all'], 3, env)).toEqual({ extension: { name: 'audit', path: path.join(second, 'fleetctl-audit') }, before: ['--json'], args: ['--all'] });
  });
});
