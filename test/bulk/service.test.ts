import { describe, expect, it } from 'vitest';
import { resumedServiceRefusal, sameService, serviceOf, withoutCredentials } from '../../src/bulk/service.js';
import { connectionFlags, resumeLine } from '../../src/bulk/resume-line.js';
import path from 'node:path';
import { assignmentRun } from '../../src/commands/devices/assign-run.js';
import { Journal, type JournalHeader } from '../../src/bulk/journal.js';
import { fakeDeps } from '../commands/fake-deps.js';
import { tempDir } from '../support/temp-dir.js';

const setting = (value: string | undefined) => ({ value, source: value === undefined ? undefined : ('flag' as const) });
const settings = (baseUrl?: string, clientId?: string) => ({ base_url: setting(baseUrl), client_id: setting(clientId) });

describe('the service a run goes to', () => {
  it('is its base URL and client id, never a secret; the embedded sandbox is marked as such', () => {
    expect(serviceOf(settings('https://api.example.com', 'ci-bot'), false)).toEqual({ base_url: 'https://api.example.com', client_id: 'ci-bot' });
    expect(serviceOf(settings('http://127.0.0.1:40123', 'sandbox-admin'), true)).toEqual({ base_url: 'http://127.0.0.1:40123', client_id: 'sandbox-admin', sandbox: true });
    expect(serviceOf(settings('https://user:hunter2@api.example.com/', 'c'), false)?.base_url).toBe('https://api.example.com/');
    expect(serviceOf(settings(undefined, 'c'), false)).toBeUndefined();
  });

  it('is the same across spellings of one URL, and the embedded sandbox is one service whatever its port', () => {
    expect(sameService({ base_url: 'https://API.example.com:443/', client_id: 'c' }, { base_url: 'https://api.example.com', client_id: 'c' })).toBe(true);
    expect(sameService({ base_url: 'https://api.example.com', client_id: 'c' }, { base_url: 'https://api.example.com', client_id: 'd' })).toBe(false);
    expect(sameService({ base_url: 'https://api.example.com', client_id: 'c' }, { base_url: 'https://staging.example.com', client_id: 'c' })).toBe(false);
    expect(sameService({ base_url: 'http://127.0.0.1:1', client_id: 'a', sandbox: true }, { base_url: 'http://127.0.0.1:2', client_id: 'a', sandbox: true })).toBe(true);
    expect(sameService({ base_url: 'http://127.0.0.1:1', client_id: 'a', sandbox: true }, { base_url: 'http://127.0.0.1:1', client_id: 'a' })).toBe(false);
  });

  it('refuses to resume elsewhere, naming both; a journal without a service resumes as before', () => {
    const prod = { base_url: 'https://api.example.com', client_id: 'ci-bot' };
    const sandbox = { base_url: 'http://127.0.0.1:4010', client_id: 'sandbox-admin', sandbox: true as const };
    const refused = resumedServiceRefusal('R1', sandbox, prod);
    expect(refused).toMatchObject({ exitCode: 2, message: 'run R1 was sent to the embedded sandbox (--sandbox, client sandbox-admin), not to https://api.example.com (client ci-bot): it is not resumed elsewhere', hint: 'add --sandbox, as the run was made' });
    expect(resumedServiceRefusal('R1', prod, sandbox)?.hint).toBe('drop --sandbox: resume against https://api.example.com with the profile of client ci-bot');
    expect(resumedServiceRefusal('R1', prod, { ...prod, client_id: 'other' })?.message).toBe('run R1 was sent to https://api.example.com (client ci-bot), not to https://api.example.com (client other): it is not resumed elsewhere');
    expect(resumedServiceRefusal('R1', undefined, prod)).toBeUndefined();
    expect(resumedServiceRefusal('R1', { base_url: 42 }, prod)).toBeUndefined();
    expect(resumedServiceRefusal('R1', prod, prod)).toBeUndefined();
  });

  it('a URL keeps everything but its credentials', () => {
    expect(withoutCredentials('https://a:b@h.example/v')).toBe('https://h.example/v');
    expect(withoutCredentials('https://h.example')).toBe('https://h.example');
  });
});

describe('the resume line', () => {
  it('carries the flags that chose the service as given, an absolute --journal, and no secret', () => {
    expect(connectionFlags({ sandbox: true, output: 'json', debug: true })).toEqual(['--sandbox']);
    expect(resumeLine({ profile: 'prod eu', baseUrl: 'https://u:p@api.example.com', insecure: true }, { verb: ['devices', 'reboot'], runId: 'R1', journal: '/runs/it is.ndjson', flags: ['--wait'] }))
      .toBe(`fleetctl --profile 'prod eu' --base-url https://api.example.com --insecure devices reboot --resume R1 --journal '/runs/it is.ndjson' --wait --yes`);
    expect(resumeLine({}, { verb: ['devices', 'assign'], runId: 'R2', journal: 'rel/j.ndjson' })).toBe(`fleetctl devices assign --resume R2 --journal ${process.cwd()}/rel/j.ndjson --yes`);
  });
});

describe('an assignment run resumed elsewhere', () => {
  it('is refused naming both, before its rows are read or anything sent; a journal without a service resumes', async () => {
    const dir = tempDir('fleetctl-assign-service-');
    const file = path.join(dir, 'j.ndjson');
    const header: JournalHeader = { type: 'run', version: 1, run_id: 'A1', command: 'unassign', key_base: '', targets: [], created_at: 'x', service: { base_url: 'https://other.example', client_id: 'test-client' } };
    (await Journal.create(file, header)).close();
    const f = fakeDeps({ configDir: dir });
    const options = { command: 'unassign' as const, yes: true, dryRun: false, journal: file, resume: 'A1' };
    await expect(assignmentRun(f.deps, options)).rejects.toMatchObject({
      exitCode: 2,
      message: 'run A1 was sent to https://other.example (client test-client), not to https://api.fleet.test (client test-client): it is not resumed elsewhere',
    });
    expect(f.sent).toEqual([]);
    const older = path.join(dir, 'older.ndjson');
    const { service: _service, ...withoutService } = header;
    (await Journal.create(older, { ...withoutService, run_id: 'A2' })).close();
    await assignmentRun(f.deps, { ...options, journal: older, resume: 'A2' });
  });
});
