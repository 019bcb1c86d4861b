// Issue 23, must-show 5, end to end: request checks come from the document of the service in use. Against the
// second service double (its own member names, its own limits), driver commands send the service's members with
// --field, name a member its document requires, and refuse only what its document refuses.
import { describe, expect, it } from 'vitest';
import { seedUuid, type SecondService } from '../support/second-service.js';
import { expectFailure, expectOk, report, useSecondHarness, type SecondHarness } from '../support/second-service/harness.js';

let h: SecondHarness;
let svc: SecondService;
const FLEET_1 = seedUuid(0xf1, 1);

useSecondHarness((started) => {
  h = started;
  svc = started.svc;
});

/** The API requests (not the document, not tokens) made since `from`. */
const apiCalls = (from: number) => svc.requests.slice(from).filter((q) => q.path.startsWith('/v1/')).map((q) => `${q.method} ${q.path}`);

describe('driver commands checked against the service\'s own document', { timeout: 120_000 }, () => {
  it('create with --field given_name/family_name: sent and created; the profile\'s organization added as the document takes one', async () => {
    const args = ['drivers', 'create', '--fleet-id', FLEET_1, '--field', 'given_name=Grace', '--field', 'family_name=Hopper', '--field', 'badge=B-7', '-o', 'json'];
    const r = await h.cli(args);
    expectOk(args, r);
    expect(JSON.parse(r.stdout)).toMatchObject({ given_name: 'Grace', family_name: 'Hopper', fleet_ref: FLEET_1 });
  });

  it('create without a member the document requires: exit 2 naming it, nothing sent', async () => {
    const from = svc.requests.length;
    const args = ['drivers', 'create', '--fleet-id', FLEET_1, '--field', 'family_name=Hopper'];
    const r = await h.cli(args);
    expectFailure(args, r, 2);
    expect(r.stderr, report(args, r)).toContain('Error: missing required field: --field given_name=...');
    expect(apiCalls(from)).toEqual([]);
  });

  it('a value beyond the document\'s limit is refused with its message; one within it is sent', async () => {
    const from = svc.requests.length;
    const long = ['drivers', 'update', seedUuid(0xd7, 3), '--field', `family_name=${'x'.repeat(201)}`];
    const refused = await h.cli(long);
    expectFailure(long, refused, 2);
    expect(refused.stderr).toContain('Error: --field family_name: must have at most 200 characters');
    expect(apiCalls(from)).toEqual([]);
    const ok = ['drivers', 'update', seedUuid(0xd7, 3), '--field', `family_name=${'x'.repeat(150)}`, '--field', 'active=false', '-o', 'json'];
    const sent = await h.cli(ok);
    expectOk(ok, sent);
    expect(JSON.parse(sent.stdout)).toMatchObject({ family_name: 'x'.repeat(150), active: false });
  });
});
