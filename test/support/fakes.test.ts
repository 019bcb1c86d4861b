// The fakes check themselves: what a test scripted and never used, or a request a fake refused and the code
// under test swallowed, fails the test when it ends. Here the end-of-test check is called by hand, so that its
// failure can be asserted (it also clears the fakes, so the setup file's own check finds nothing left).
import { describe, expect, it } from 'vitest';
import { request } from 'undici';
import { verifyTestFakes } from './fakes.js';
import { scriptedTransport } from './scripted-transport.js';
import { BASE_URL, allowPending, newMockAgent, stubApi } from './mock-http.js';
import { fakeDeps } from '../commands/fake-deps.js';

const send = (path: string) => ({ method: 'GET', url: `https://api.fleet.test${path}`, headers: {} });

describe('scripted transport', () => {
  it('an answer never asked for fails the test', async () => {
    scriptedTransport([{ method: 'GET', path: '/v1/a' }]);
    await expect(verifyTestFakes()).rejects.toThrow("scripted transport answers never asked for: expected [ 'GET /v1/a' ] to deeply equal []");
  });

  it('a refused request fails the test even when the code under test caught the error', async () => {
    const t = scriptedTransport([{ method: 'GET', path: '/v1/a' }]);
    await t.send(send('/v1/b')).catch(() => undefined);
    await t.send(send('/v1/c')).catch(() => undefined);
    await expect(verifyTestFakes()).rejects.toMatchObject({ name: 'AssertionError', actual: 'GET /v1/b', expected: 'GET /v1/a' });
  });

  it('a refusal the test took is its own to check; unused answers may stay when the test says why', async () => {
    const t = scriptedTransport([{ method: 'GET', path: '/v1/a' }, { method: 'GET', path: '/v1/b' }]);
    await expect(t.send(send('/v1/x'))).rejects.toThrow();
    expect(t.takeRefusals()).toHaveLength(1);
    expect(() => t.allowUnanswered(' ')).toThrow('an opt-out needs a reason');
    t.allowUnanswered('the answers stand for a server that was never reached');
    await expect(verifyTestFakes()).resolves.toBeUndefined();
  });
});

describe('MockAgent', () => {
  it('a stub never used fails the test', async () => {
    stubApi(newMockAgent(), { path: '/v1/devices' });
    await expect(verifyTestFakes()).rejects.toThrow(/1 interceptor is pending/);
  });

  it('a request no stub matched fails the test even when the code under test caught the error', async () => {
    const agent = newMockAgent();
    await request(`${BASE_URL}/v1/nothing`, { dispatcher: agent }).catch(() => undefined);
    await expect(verifyTestFakes()).rejects.toThrow(/requests no stub matched:\nMock dispatch not matched for path '\/v1\/nothing'/);
  });

  it('stubs may stay unused when the test says why; used stubs pass', async () => {
    const idle = newMockAgent();
    stubApi(idle, { path: '/v1/devices' });
    allowPending(idle, 'nothing may be asked here');
    const used = newMockAgent();
    stubApi(used, { path: '/v1/devices', body: { data: [] } });
    expect((await request(`${BASE_URL}/v1/devices`, { dispatcher: used })).statusCode).toBe(200);
    await expect(verifyTestFakes()).resolves.toBeUndefined();
  });
});

describe('scripted prompter (fakeDeps)', () => {
  it('a prompt nobody scripted fails the test even when the code under test caught the error', async () => {
    const f = fakeDeps({ tty: true });
    await f.deps.prompter.confirm('Reboot?').catch(() => undefined);
    await expect(verifyTestFakes()).rejects.toThrow('unexpected confirmation Reboot?');
  });

  it('an answer never asked for fails the test', async () => {
    fakeDeps({ tty: true, inputs: ['y'] });
    await expect(verifyTestFakes()).rejects.toThrow('scripted prompt answers left unused');
  });
});
