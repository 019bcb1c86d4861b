// sandbox requests: a parse table (flags → the query sent) and a run table (scripted transport).
import { describe, expect, it } from 'vitest';
import { newSandboxRequestsCommand, sandboxRequestsRun, type SandboxRequestsOptions } from '../../../src/commands/sandbox/requests.js';
import { fakeDeps, parseVerb, recordRun } from '../fake-deps.js';

const entry = {
  id: 7, at: '2024-06-01T12:00:00.000Z', method: 'POST', path: '/v1/devices/HW-000001/commands/reboot', query: '', operation_id: 'rebootDevice',
  client_id: 'sandbox-admin', hardware_id: 'HW-000001', status: 503, outcome: 'answered', duration_ms: 2.5, idempotency_key: 'k', if_match: null,
  authorization: 'Bearer [REDACTED]', fault: 'f1',
};

describe('sandbox requests: parsing', () => {
  async function parse(args: string[]): Promise<SandboxRequestsOptions> {
    const { run, calls } = recordRun<SandboxRequestsOptions>();
    await parseVerb(newSandboxRequestsCommand(fakeDeps().deps, run), args);
    return calls[0]!;
  }
  it.each([
    [[], { bodies: false, status: undefined, limit: undefined }],
    [['--operation-id', 'rebootDevice', '--client-id', 'ci', '--hardware-id', 'HW-1', '--status', '5xx', '--limit', '20', '--bodies'], { operationId: 'rebootDevice', clientId: 'ci', hardwareId: 'HW-1', status: '5xx', limit: 20, bodies: true }],
    [['--status', 'dropped'], { status: 'dropped', bodies: false, limit: undefined }],
  ])('%j', async (args, expected) => expect(await parse(args)).toEqual(expected));
  it.each([
    [['--status', '5x'], '--status must be a status such as 503, a class such as 5xx, or dropped, got "5x"'],
    [['--limit', '0'], '--limit must be a whole number from 1 to 10000, got "0"'],
  ])('%j is refused: %s', async (args, message) => expect(parse(args)).rejects.toThrow(message));
});

describe('sandbox requests: running', () => {
  it.each([false, true])('asks with the filters and lists the entries (tty %s)', async (tty) => {
    const f = fakeDeps({ tty, answers: [{ method: 'GET', path: '/_sandbox/requests?operation_id=rebootDevice&status=5xx&limit=5', body: [entry] }] });
    await sandboxRequestsRun(f.deps, { operationId: 'rebootDevice', status: '5xx', limit: 5, bodies: false });
    f.assertAllAnswered();
    expect(f.sent[0]!.headers.authorization).toBeUndefined();
    if (tty) expect(f.io.stdout()).toMatch(/POST.*\/v1\/devices\/HW-000001\/commands\/reboot.*503.*answered/);
    else expect(f.io.stdout()).toBe('id\tat\tmethod\tpath\toperation_id\tclient_id\tstatus\toutcome\tduration_ms\tfault\n7\t2024-06-01T12:00:00.000Z\tPOST\t/v1/devices/HW-000001/commands/reboot\trebootDevice\tsandbox-admin\t503\tanswered\t2.5\tf1\n');
    // what the entries carry beyond the view is named on a terminal, once
    expect(f.io.stderr()).toMatch(tty ? /^Not shown at \d+ columns: .*query.*; -o wide shows them\n$/ : /^$/);
  });

  it('with --bodies asks for them and shows them as columns; JSON carries whole entries; none found is said on stderr', async () => {
    const f = fakeDeps({ format: 'csv', answers: [{ method: 'GET', path: '/_sandbox/requests?bodies=true', body: [{ ...entry, request_body: null, response_body: '{"code":"x"}' }] }] });
    await sandboxRequestsRun(f.deps, { bodies: true });
    expect(f.io.stdout().split('\n')[0]).toBe('id,at,method,path,operation_id,client_id,status,outcome,duration_ms,fault,request_body,response_body');
    const none = fakeDeps({ format: 'json', answers: [{ method: 'GET', path: '/_sandbox/requests?client_id=nobody', body: [] }] });
    await sandboxRequestsRun(none.deps, { clientId: 'nobody', bodies: false });
    expect(none.io.stdout()).toBe('[]\n');
    expect(none.io.stderr()).toBe('No requests recorded that match.\n');
  });
});
