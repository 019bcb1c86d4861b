// What the client is built with, chosen from the settings: proxies unless the embedded sandbox answers on
// loopback, and an extra CA bundle named by where it was configured when it cannot be used.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { networkSettings } from '../../src/api/client-from-settings.js';
import { resolveSettings } from '../../src/config/settings.js';
import { tempDir } from '../support/temp-dir.js';

const proxyEnv = { HTTPS_PROXY: 'http://proxy.corp.test:3128', NO_PROXY: 'internal.test' };

describe('networkSettings', () => {
  it('takes the proxies of the environment, and none for the embedded sandbox', async () => {
    const settings = resolveSettings({}, {}, undefined);
    expect((await networkSettings(Promise.resolve(settings), proxyEnv, false)).proxy).toEqual({ httpProxy: '', httpsProxy: 'http://proxy.corp.test:3128', noProxy: 'internal.test' });
    expect((await networkSettings(Promise.resolve(settings), proxyEnv, true)).proxy).toEqual({ httpProxy: '', httpsProxy: '', noProxy: '' });
  });

  it('names where an unusable CA bundle was configured: the flag, the environment or the profile', async () => {
    const empty = path.join(tempDir('ca-'), 'empty.pem');
    writeFileSync(empty, 'no certificate here\n');
    const cases: [Parameters<typeof resolveSettings>, string][] = [
      [[{ caFile: empty }, {}, undefined], '--ca-file'],
      [[{}, { FLEETCTL_CA_FILE: empty }, undefined], 'FLEETCTL_CA_FILE'],
      [[{}, {}, { current_profile: 'work', profiles: { work: { ca_file: empty } }, tokens: {} }], 'ca_file of profile "work"'],
    ];
    for (const [args, origin] of cases) {
      await expect(networkSettings(Promise.resolve(resolveSettings(...args)), {}, false)).rejects.toThrow(`(${origin}) holds no PEM certificate`);
    }
  });

  it('without a CA file, adds no certificate authority', async () => {
    expect(await networkSettings(Promise.resolve(resolveSettings({}, {}, undefined)), {}, false)).toEqual({ proxy: { httpProxy: '', httpsProxy: '', noProxy: '' } });
  });
});
