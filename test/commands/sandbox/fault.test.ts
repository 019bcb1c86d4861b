// sandbox fault add|list|clear: a parse table (flags → the rule sent) and a run table (scripted transport).
import { describe, expect, it } from 'vitest';
import { FAULT_METHODS, FAULT_STATUSES, faultAddRun, faultClearRun, faultListRun, newSandboxFaultCommand, type FaultAddOptions } from '../../../src/commands/sandbox/fault.js';
import type { components } from '../../../src/openapi/control.gen.js';
import control from '../../../src/sandbox/common/control-openapi.json' with { type: 'json' };
import { fakeDeps, parseVerb } from '../fake-deps.js';

const rule: components['schemas']['FaultRule'] = {
  id: 'f1', match: { operation_id: 'rebootDevice', hardware_id: 'HW-000003' }, respond: { status: 503 }, probability: 1, times: 2, hits: 0,
  created_at: '2024-06-01T12:00:00.000Z',
};

describe('sandbox fault: the flag choices', () => {
  it('are the control document\'s FaultAnswer.status and FaultMatch.method enums', () => {
    expect(FAULT_STATUSES.map(Number)).toEqual(control.components.schemas.FaultAnswer.properties.status.enum);
    expect([...FAULT_METHODS]).toEqual(control.components.schemas.FaultMatch.properties.method.enum);
  });
});

describe('sandbox fault: parsing', () => {
  async function parse(args: string[]): Promise<FaultAddOptions> {
    const calls: FaultAddOptions[] = [];
    const noop = async () => undefined;
    await parseVerb(newSandboxFaultCommand(fakeDeps().deps, { add: async (_d, o) => void calls.push(o), list: noop, clear: noop }), ['add', ...args]);
    return calls[0]!;
  }
  it.each([
    [['--operation-id', 'rebootDevice', '--hardware-id', 'HW-000003', '--status', '503', '--times', '2'], { match: { operation_id: 'rebootDevice', hardware_id: 'HW-000003' }, respond: { status: 503 }, times: 2 }],
    [['--status', '429', '--retry-after', '30', '--code', 'quota.exceeded', '--probability', '0.25'], { match: {}, respond: { status: 429, code: 'quota.exceeded', retry_after: 30 }, probability: 0.25 }],
    [['--method', 'GET', '--path', '/v1/devices/*/last-position', '--client-id', 'ci', '--drop'], { match: { method: 'GET', path: '/v1/devices/*/last-position', client_id: 'ci' }, respond: { drop: true } }],
    [['--operation-id', 'requestToken', '--delay', '1500'], { match: { operation_id: 'requestToken' }, respond: { delay_ms: 1500 } }],
    [['--truncate', '--delay', '10', '--description', 'slow and cut'], { match: {}, respond: { body: 'truncated', delay_ms: 10 }, description: 'slow and cut' }],
    [['--malformed'], { match: {}, respond: { body: 'malformed' } }],
  ])('%j', async (args, expected) => expect(await parse(args)).toEqual(expected));

  it.each([
    [[], 'say how the sandbox answers: --status, --drop, --truncate, --malformed or --delay'],
    [['--status', '503', '--drop'], 'give one of --status, --drop, --truncate or --malformed, not --status and --drop'],
    [['--status', '418'], "option '--status <status>' argument '418' is invalid"],
    [['--drop', '--code', 'x.y'], '--code goes with --status'],
    [['--status', '500', '--retry-after', '3'], '--retry-after goes with --status 429 or 503'],
    [['--drop', '--times', '0'], '--times must be a whole number of at least 1, got "0"'],
    [['--drop', '--probability', '0'], '--probability must be a number above 0 and at most 1, got "0"'],
    [['--delay', '-5'], '--delay must be a whole number from 0 to 120000, got "-5"'],
    [['--drop', '--method', 'FETCH'], "option '--method <method>' argument 'FETCH' is invalid"],
  ])('%j is refused: %s', async (args, message) => expect(parse(args)).rejects.toThrow(message));
});

describe('sandbox fault: running', () => {
  it.each([false, true])('add posts the rule and shows the rule added (tty %s)', async (tty) => {
    const f = fakeDeps({ tty, answers: [{ method: 'POST', path: '/_sandbox/faults', status: 201, body: rule }] });
    await faultAddRun(f.deps, { match: rule.match, respond: rule.respond, times: 2 });
    f.assertAllAnswered();
    expect(f.sent[0]!.json).toEqual({ match: rule.match, respond: rule.respond, times: 2 });
    expect(f.sent[0]!.headers.authorization).toBeUndefined();
    if (tty) expect(f.io.stdout()).toContain('HW-000003');
    else expect(f.io.stdout()).toContain('id\tf1\n');
    expect(f.io.stderr()).toBe('');
  });

  it('list prints the rules; an empty list says so on stderr', async () => {
    const f = fakeDeps({ answers: [{ method: 'GET', path: '/_sandbox/faults', body: [{ ...rule, hits: 2 }] }] });
    await faultListRun(f.deps);
    expect(f.io.stdout()).toBe('id\tmatch\trespond\tprobability\ttimes\thits\nf1\t{"operation_id":"rebootDevice","hardware_id":"HW-000003"}\t{"status":503}\t1\t2\t2\n');
    const none = fakeDeps({ format: 'json', answers: [{ method: 'GET', path: '/_sandbox/faults', body: [] }] });
    await faultListRun(none.deps);
    expect(none.io.stdout()).toBe('[]\n');
    expect(none.io.stderr()).toBe('No fault rules: every request is answered normally (add one with `fleetctl sandbox fault add`).\n');
  });

  it('clear removes all, or one by id; an unknown id is the sandbox\'s 404 (exit 5), not "no sandbox"', async () => {
    const f = fakeDeps({ answers: [{ method: 'DELETE', path: '/_sandbox/faults', status: 204 }, { method: 'DELETE', path: '/_sandbox/faults/f2', status: 204 }] });
    await faultClearRun(f.deps, undefined);
    await faultClearRun(f.deps, 'f2');
    expect(f.io.stderr()).toBe('Every fault rule removed.\nFault rule f2 removed.\n');
    const missing = fakeDeps({ answers: [{ method: 'DELETE', path: '/_sandbox/faults/f9', status: 404, body: { type: 'x', title: 'Not Found', status: 404, detail: 'There is no fault rule f9.', code: 'fault.not_found' } }] });
    await expect(faultClearRun(missing.deps, 'f9')).rejects.toMatchObject({ code: 'fault.not_found', exitCode: 5 });
    const elsewhere = fakeDeps({ answers: [{ method: 'GET', path: '/_sandbox/faults', status: 404, body: { status: 404, code: 'route.not_found' } }] });
    await expect(faultListRun(elsewhere.deps)).rejects.toThrow('https://api.fleet.test is not a fleetctl sandbox (no /_sandbox/faults there)');
  });

  it('a refused rule is the sandbox\'s 400 problem naming the member (exit 2)', async () => {
    const f = fakeDeps({ answers: [{ method: 'POST', path: '/_sandbox/faults', status: 400, body: { type: 'x', title: 'Bad Request', status: 400, detail: 'Invalid request body: match.operation_id rebootDevices is no operation of the API.', code: 'request.invalid_body' } }] });
    await expect(faultAddRun(f.deps, { match: { operation_id: 'rebootDevices' }, respond: { drop: true } })).rejects.toMatchObject({ exitCode: 2, message: expect.stringContaining('match.operation_id') });
  });
});
