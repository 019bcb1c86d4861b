// What `get -o json|yaml` printed from another service goes back into diff and apply: members of the service's
// configuration that fleetctl does not manage are left alone and named once; a member nobody has is a typo.
import { describe, expect, it } from 'vitest';
import { newWebhookDiffCommand } from '../../../src/commands/webhook-config/diff.js';
import { newWebhookApplyCommand } from '../../../src/commands/webhook-config/apply.js';
import { separateMembers, settleUnmanaged } from '../../../src/commands/webhook-config/unmanaged-members.js';
import { UsageError } from '../../../src/errors.js';
import type { WebhookConfig } from '../../../src/commands/webhook-config/config-client.js';
import { fakeDeps, parseVerb } from '../fake-deps.js';
import { BASE, getAnswer, noConfig, ORG, URL_A, URL_B } from './webhook-fixtures.js';
import { IOStreams } from '../../../src/io/streams.js';

/** A configuration as another service shapes it: its own members at every level, none of the sandbox's read-only ones. */
const theirs = {
  is_enabled: true,
  transport: 'HttpCallback',
  created_by: 'admin@example.com',
  id: 'cfg-7',
  topics: [
    { type: 'events', is_enabled: true, filter: { severity: 'high' }, delivery: { url: URL_A, timeout_ms: 5000 } },
    { type: 'alarms', is_enabled: false, delivery: { url: URL_B } },
  ],
  auth_key_hint: '…x7Qa',
} as unknown as WebhookConfig;

/** What `webhook-config get -o json` printed of it. */
const printed = JSON.stringify({ ...theirs, etag: '"e1"' });
const LEFT_ALONE =
  "Note: stdin: left alone: transport, created_by, id, auth_key_hint, etag, topics[].filter, topics[].delivery.timeout_ms (members of the service's configuration that fleetctl does not manage).\n";

describe('separateMembers', () => {
  it('keeps the managed members and lists the others where they were found', () => {
    const { managed, unmanaged } = separateMembers(JSON.parse(printed));
    expect(managed).toEqual({
      is_enabled: true,
      topics: [
        { type: 'events', is_enabled: true, delivery: { url: URL_A } },
        { type: 'alarms', is_enabled: false, delivery: { url: URL_B } },
      ],
    });
    expect(unmanaged.map((m) => m.path)).toEqual(['transport', 'created_by', 'id', 'auth_key_hint', 'etag', 'topics[0].filter', 'topics[0].delivery.timeout_ms']);
  });

  it('leaves a value of the wrong shape to the schema check', () => {
    expect(separateMembers([1]).managed).toEqual([1]);
    expect(separateMembers({ topics: 'events' }).managed).toEqual({ topics: 'events' });
    expect(separateMembers({ topics: [{ type: 'events', delivery: 'x' }] }).managed).toEqual({ topics: [{ type: 'events', delivery: 'x' }] });
  });
});

describe('settleUnmanaged', () => {
  const settle = (file: unknown, current: WebhookConfig | undefined) => {
    const io = IOStreams.forTest({ tty: false });
    settleUnmanaged(separateMembers(file).unmanaged, current, 'desired.json', io);
    return io.stderr();
  };

  it('says nothing when the file has only managed members', () => {
    expect(settle({ topics: [{ type: 'events', delivery: { url: URL_A } }] }, theirs)).toBe('');
  });

  it.each([
    [{ topics: [], transprot: 'x' }, 'desired.json: transprot: is not a known member (did you mean transport?)'],
    [{ topics: [{ type: 'events', filtr: {} }] }, 'desired.json: topics[0].filtr: is not a known member (did you mean filter?)'],
    [{ topics: [{ type: 'events', delivry: { url: URL_A } }] }, 'desired.json: topics[0].delivry: is not a known member (did you mean delivery?)'],
    [{ topics: [{ type: 'events', delivery: { uri: URL_A } }] }, 'desired.json: topics[0].delivery.uri: is not a known member (did you mean url?)'],
    [{ topics: [], secret: 'x' }, 'desired.json: secret: is not a known member'],
  ])('refuses a member neither managed nor the service has: %j', (file, message) => {
    let error: unknown;
    try {
      settle(file, theirs);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).exitCode).toBe(2);
    expect((error as UsageError).message).toBe(message);
  });

  it("names the service's members in the hint, and a member of the service's topics is known at that level only", () => {
    const refuse = () => settle({ topics: [], filter: {} }, theirs);
    expect(refuse).toThrow('desired.json: filter: is not a known member');
    try {
      refuse();
    } catch (e) {
      expect((e as UsageError).hint).toBe(
        "members of the configuration are those fleetctl manages (is_enabled, topics) and those the service's configuration has (transport, created_by, id, auth_key_hint)",
      );
    }
  });

  it('accepts what `get` prints of any configuration even where there is none yet, and nothing else', () => {
    expect(settle({ topics: [], organization_id: ORG, etag: '"e1"', created_at: 'x' }, undefined)).toBe(
      "Note: desired.json: left alone: organization_id, etag, created_at (members of the service's configuration that fleetctl does not manage).\n",
    );
    expect(() => settle({ topics: [], transport: 'HttpCallback' }, undefined)).toThrow('desired.json: transport: is not a known member');
  });
});

describe('diff and apply with what another service printed', () => {
  it('diff: no differences, the unmanaged members named once on stderr', async () => {
    const f = fakeDeps({ stdin: printed, format: 'json', answers: [getAnswer('"e1"', theirs)] });
    await parseVerb(newWebhookDiffCommand(f.deps), ['-f', '-', '--org', ORG]);
    expect(f.io.stdout()).toBe('[]\n');
    expect(f.io.stderr()).toBe(LEFT_ALONE);
  });

  it('apply: an edit of a managed member is applied, the unmanaged ones are neither compared nor sent', async () => {
    const edited = printed.replace('"is_enabled":false', '"is_enabled":true');
    const after = { ...theirs, topics: [theirs.topics[0]!, { ...theirs.topics[1]!, is_enabled: true }] } as WebhookConfig;
    const f = fakeDeps({
      stdin: edited,
      answers: [getAnswer('"e1"', theirs), { method: 'PUT', path: `${BASE}/topics/alarms`, body: after, headers: { etag: '"e2"' } }, getAnswer('"e2"', after)],
    });
    await parseVerb(newWebhookApplyCommand(f.deps), ['-f', '-', '--org', ORG]);
    f.assertAllAnswered();
    expect(f.sent[1]!.json).toEqual({ is_enabled: true, delivery: { url: URL_B } });
    expect(f.sent[1]!.headers['if-match']).toBe('"e1"');
    expect(f.io.stderr().split('\n').filter((line) => line.startsWith('Note:'))).toEqual([LEFT_ALONE.trimEnd()]);
  });

  it('apply: a typo is exit 2 with the nearest name, after the read and before any change', async () => {
    const typo = JSON.stringify({ ...JSON.parse(printed), trasnport: 'HttpCallback' });
    const f = fakeDeps({ stdin: typo, answers: [getAnswer('"e1"', theirs)] });
    const error = (await parseVerb(newWebhookApplyCommand(f.deps), ['-f', '-', '--org', ORG]).catch((e: unknown) => e)) as UsageError;
    expect(error).toBeInstanceOf(UsageError);
    expect(error.exitCode).toBe(2);
    expect(error.message).toBe('stdin: trasnport: is not a known member (did you mean transport?)');
    expect(f.sent.map((r) => r.method)).toEqual(['GET']);
    expect(f.io.stderr()).toBe('');
  });

  it('diff against an organization without a configuration refuses the members only a service has', async () => {
    const f = fakeDeps({ stdin: printed, answers: [noConfig] });
    await expect(parseVerb(newWebhookDiffCommand(f.deps), ['-f', '-', '--org', ORG])).rejects.toThrow('stdin: transport: is not a known member');
  });
});
