import { describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseDesired, type DesiredState } from '../../../src/commands/webhook-config/desired.js';
import { planChanges, removedTopics } from '../../../src/commands/webhook-config/plan.js';
import { newWebhookDiffCommand, webhookDiffRun, type WebhookDiffOptions } from '../../../src/commands/webhook-config/diff.js';
import { newWebhookApplyCommand, webhookApplyRun, StaleEtagError, type WebhookApplyOptions } from '../../../src/commands/webhook-config/apply.js';
import type { WebhookTopic } from '../../../src/commands/webhook-config/config-client.js';
import { ApiError } from '../../../src/errors.js';
import { fakeDeps, parseVerb, recordRun } from '../fake-deps.js';
import { BASE, config, getAnswer, noConfig, ORG, pipedConfig, problem, URL_A, URL_B } from './webhook-fixtures.js';
import { suiteTempDir } from '../../support/temp-dir.js';

const events: WebhookTopic = { type: 'events', is_enabled: true, delivery: { url: URL_A } };
const alarms: WebhookTopic = { type: 'alarms', is_enabled: true, delivery: { url: URL_B } };
const alarmsOff: WebhookTopic = { ...alarms, is_enabled: false };
const media: WebhookTopic = { type: 'media', is_enabled: true, delivery: { url: URL_A } };

describe('desired-state file', () => {
  const cases: { name: string; doc: unknown; want?: DesiredState; error?: string }[] = [
    { name: 'topic is_enabled defaults to true', doc: { topics: [{ type: 'events', delivery: { url: URL_A } }] }, want: { topics: [events] } },
    { name: 'is_enabled kept', doc: { is_enabled: false, topics: [events] }, want: { is_enabled: false, topics: [events] } },
    { name: 'not an object', doc: [], error: 'desired.json: must be an object' },
    { name: 'unknown member', doc: { topics: [events], auth_key: 'x' }, error: 'desired.json: auth_key: is not a known member' },
    { name: 'no topics', doc: { topics: [] }, error: 'desired.json: topics: must list at least 1 item(s)' },
    { name: 'topics missing', doc: { is_enabled: true }, error: 'desired.json: topics: is required' },
    { name: 'bad switch', doc: { is_enabled: 'yes', topics: [events] }, error: 'desired.json: is_enabled: must be a boolean' },
    { name: 'unknown type', doc: { topics: [{ type: 'sms', delivery: { url: URL_A } }] }, error: 'desired.json: topics[0].type: must be one of events, alarms, media, live_gps, journeys' },
    { name: 'unknown topic member', doc: { topics: [{ ...events, url: URL_A }] }, error: 'desired.json: topics[0].url: is not a known member' },
    { name: 'missing delivery', doc: { topics: [{ type: 'events' }] }, error: 'desired.json: topics[0].delivery: is required' },
    {
      name: 'blocked url',
      doc: { topics: [events, { type: 'alarms', delivery: { url: 'https://192.168.1.10/hook' } }] },
      error: 'desired.json: topics[1].delivery.url is refused (webhook.ssrf_blocked): The callback host 192.168.1.10 is a literal address in a blocked range (private).',
    },
    { name: 'http url', doc: { topics: [{ type: 'events', delivery: { url: 'http://hooks.example.com/' } }] }, error: '(webhook.invalid_url)' },
    { name: 'repeat', doc: { topics: [events, alarms, { ...events, is_enabled: false }] }, error: `desired.json: topics[2] repeats topics[0] (events ${URL_A})` },
    {
      name: 'too many',
      doc: { topics: Array.from({ length: 26 }, (_, i) => ({ type: 'events', delivery: { url: `${URL_A}/${i}` } })) },
      error: 'desired.json: topics: must list at most 25 items',
    },
  ];
  it('accepts loopback and private destinations only with allowPrivate (a local sandbox)', async () => {
    const doc = { topics: [{ type: 'events', delivery: { url: 'http://localhost:8080/hook' } }] };
    await expect(parseDesired(doc, 'd')).rejects.toThrow('(webhook.invalid_url)');
    expect((await parseDesired(doc, 'd', true)).topics[0]!.delivery.url).toBe('http://localhost:8080/hook');
  });

  for (const c of cases) {
    it(c.name, async () => {
      if (c.error) await expect(parseDesired(c.doc, 'desired.json')).rejects.toThrow(c.error);
      else expect(await parseDesired(c.doc, 'desired.json')).toEqual(c.want);
    });
  }
});

describe('planChanges', () => {
  const cases: { name: string; current?: { is_enabled: boolean; topics: WebhookTopic[] }; desired: DesiredState; want: unknown[] }[] = [
    { name: 'nothing differs (order ignored)', current: { is_enabled: true, topics: [events, alarms] }, desired: { is_enabled: true, topics: [alarms, events] }, want: [] },
    { name: 'is_enabled omitted leaves the switch', current: { is_enabled: true, topics: [events] }, desired: { topics: [events] }, want: [] },
    {
      name: 'none yet, enabled wanted: create disabled, then enable',
      desired: { is_enabled: true, topics: [events, alarms] },
      want: [{ op: 'create', after: { is_enabled: false, topics: [events, alarms] } }, { op: 'set_enabled', before: false, after: true }],
    },
    { name: 'none yet, switch omitted: create only', desired: { topics: [events] }, want: [{ op: 'create', after: { is_enabled: false, topics: [events] } }] },
    {
      name: 'sets before removes, enable last',
      current: { is_enabled: false, topics: [events, media] },
      desired: { is_enabled: true, topics: [alarmsOff] },
      want: [
        { op: 'set_topic', type: 'alarms', before: [], after: alarmsOff },
        { op: 'remove_topic', type: 'events', before: [events] },
        { op: 'remove_topic', type: 'media', before: [media] },
        { op: 'set_enabled', before: false, after: true },
      ],
    },
    {
      name: 'disable first',
      current: { is_enabled: true, topics: [events, alarms] },
      desired: { is_enabled: false, topics: [events, alarmsOff] },
      want: [{ op: 'set_enabled', before: true, after: false }, { op: 'set_topic', type: 'alarms', before: [alarms], after: alarmsOff }],
    },
    {
      name: 'a type with two destinations needs the whole PUT',
      current: { is_enabled: true, topics: [events] },
      desired: { topics: [events, { ...events, delivery: { url: URL_B } }] },
      want: [{ op: 'replace_topics', is_enabled: true, before: [events], after: [events, { ...events, delivery: { url: URL_B } }] }],
    },
    {
      name: 'collapsing a repeated type is one upsert',
      current: { is_enabled: false, topics: [events, { ...events, delivery: { url: URL_B } }] },
      desired: { topics: [events] },
      want: [{ op: 'set_topic', type: 'events', before: [events, { ...events, delivery: { url: URL_B } }], after: events }],
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      expect(planChanges(c.current && config(c.current), c.desired)).toEqual(c.want);
    });
  }

  it('uses the whole PUT when upserts would pass 25 topics on the way', () => {
    const many = Array.from({ length: 25 }, (_, i): WebhookTopic => ({ type: 'events', is_enabled: true, delivery: { url: `${URL_A}/${i}` } }));
    const desired = { topics: [...many.slice(0, 24), alarms] };
    expect(planChanges(config({ topics: many }), desired)).toEqual([{ op: 'replace_topics', is_enabled: false, before: many, after: desired.topics }]);
  });
});

describe('diff and apply: parse', () => {
  const dir = suiteTempDir('webhook-apply-');
  const file = path.join(dir, 'desired.json');
  writeFileSync(file, JSON.stringify({ is_enabled: true, topics: [events], transport: 'HttpCallback' }));

  it('reads the file, or stdin for -, setting aside the members fleetctl does not manage', async () => {
    const f = fakeDeps({ stdin: JSON.stringify({ topics: [alarms] }) });
    const diff = recordRun<WebhookDiffOptions>();
    await parseVerb(newWebhookDiffCommand(f.deps, diff.run), ['-f', file, '--org', ORG]);
    expect(diff.calls[0]).toEqual({ organizationId: ORG, desired: { is_enabled: true, topics: [events] }, unmanaged: [{ level: 'config', name: 'transport', path: 'transport' }], source: file });
    const apply = recordRun<WebhookApplyOptions>();
    await parseVerb(newWebhookApplyCommand(f.deps, apply.run), ['-f', '-', '--if-match', 'e1']);
    expect(apply.calls[0]).toEqual({ organizationId: undefined, desired: { topics: [alarms] }, unmanaged: [], source: 'stdin', ifMatch: '"e1"', yes: false });
  });

  it('refuses a bad document before any request', async () => {
    const f = fakeDeps({ stdin: '{"topics": [' });
    await expect(parseVerb(newWebhookApplyCommand(f.deps), ['-f', '-'])).rejects.toThrow('-f (stdin) is not valid JSON');
    await expect(parseVerb(newWebhookDiffCommand(f.deps), ['-f', path.join(dir, 'missing.json')])).rejects.toThrow('cannot read -f');
    expect(f.sent).toEqual([]);
  });
});

describe('removedTopics', () => {
  it('the topics whose type no longer delivers: removed, or dropped by a replacement; a changed URL is no removal', () => {
    const moved = { ...events, delivery: { url: URL_B } };
    expect(removedTopics([{ op: 'remove_topic', type: 'media', before: [media] }])).toEqual([media]);
    expect(removedTopics([{ op: 'replace_topics', is_enabled: true, before: [events, media, alarms], after: [moved, moved, alarms] }])).toEqual([media]);
    expect(removedTopics([{ op: 'set_topic', type: 'events', before: [events], after: moved }, { op: 'set_enabled', before: true, after: false }])).toEqual([]);
  });
});

describe('webhook-config diff', () => {
  const desired: DesiredState = { is_enabled: true, topics: [events, alarmsOff] };

  it.each([false, true])('shows the changes readably (tty %s)', async (tty) => {
    const f = fakeDeps({ tty, answers: [getAnswer('"e1"', config({ topics: [events, media] }))] });
    await webhookDiffRun(f.deps, { organizationId: ORG, desired, source: 'desired.json' });
    f.assertAllAnswered();
    const text = `Webhook configuration of organization ${ORG} (ETag "e1"):\n+ topic alarms ${URL_B} (disabled)\n- topic media ${URL_A}\n~ is_enabled: false -> true (delivery on)\n`;
    if (tty) expect(f.io.stdout()).toBe(text.replace(/^([+~-] .*)$/gm, (line) => `\u001b[${{ '+': 32, '-': 31, '~': 33 }[line[0] as '+']}m${line}\u001b[39m`));
    else expect(f.io.stdout()).toBe(text);
  });

  it('prints a JSON change list with -o json, [] when nothing differs', async () => {
    const f = fakeDeps({ format: 'json', answers: [noConfig] });
    await webhookDiffRun(f.deps, { organizationId: ORG, desired, source: 'd' });
    expect(JSON.parse(f.io.stdout())).toEqual([
      { op: 'create', after: { is_enabled: false, topics: [events, alarmsOff] } },
      { op: 'set_enabled', before: false, after: true },
    ]);
    const same = fakeDeps({ format: 'json', answers: [getAnswer('"e1"', config({ is_enabled: true, topics: [alarmsOff, events] }))] });
    await webhookDiffRun(same.deps, { organizationId: ORG, desired, source: 'd' });
    expect(same.io.stdout()).toBe('[]\n');
  });

  it('says so on stderr when nothing differs', async () => {
    const f = fakeDeps({ answers: [getAnswer('"e1"', config({ is_enabled: true, topics: [events, alarmsOff] }))] });
    await webhookDiffRun(f.deps, { organizationId: ORG, desired, source: 'desired.json' });
    expect(f.io.stdout()).toBe('');
    expect(f.io.stderr()).toBe(`No differences: the webhook configuration of organization ${ORG} matches desired.json.\n`);
  });
});

describe('webhook-config apply', () => {
  it('creates disabled, then enables, each with the ETag of the re-read after the mutation before it', async () => {
    const created = config({ topics: [events] });
    const enabled = config({ is_enabled: true, topics: [events] });
    const f = fakeDeps({
      answers: [
        noConfig,
        // the mutation answers carry ETags of their own, which are not the ones the next If-Match must carry
        { method: 'PUT', path: BASE, status: 201, body: created, headers: { etag: '"answer-1"' } },
        getAnswer('"e1"', created),
        { method: 'PATCH', path: BASE, body: enabled, headers: { etag: '"answer-2"' } },
        getAnswer('"e2"', enabled),
      ],
    });
    await webhookApplyRun(f.deps, { organizationId: ORG, desired: { is_enabled: true, topics: [events] }, source: 'd.json' });
    f.assertAllAnswered();
    expect(f.sent[1]!.json).toEqual({ is_enabled: false, topics: [events] });
    expect(f.sent[1]!.headers['if-match']).toBeUndefined();
    expect(f.sent[3]!.headers['if-match']).toBe('"e1"');
    expect(f.io.stdout()).toBe(pipedConfig('"e2"', enabled));
    expect(f.io.stderr()).toBe(
      [
        '+ create the configuration, disabled, with 1 topic',
        `+   topic events ${URL_A}`,
        '~ is_enabled: false -> true (delivery on)',
        `Applied 2 changes to the webhook configuration of organization ${ORG}.`,
        'Switching delivery takes up to 60 s to propagate.',
        '',
      ].join('\n'),
    );
  });

  it('re-reads after every mutation (spec) and sends the ETag read, never the one a mutation answered with', async () => {
    const f = fakeDeps({
      answers: [
        getAnswer('"e1"', config({ topics: [events, media] })),
        { method: 'PUT', path: `${BASE}/topics/alarms`, body: config(), headers: { etag: '"answer-2"' } },
        getAnswer('"e2"', config({ topics: [events, media, alarms] })),
        { method: 'DELETE', path: `${BASE}/topics/media`, body: config() },
        getAnswer('"e3"', config({ topics: [events, alarms] })),
      ],
    });
    await webhookApplyRun(f.deps, { organizationId: ORG, desired: { topics: [events, alarms] }, source: 'd.json', yes: true });
    f.assertAllAnswered();
    expect(f.sent.map((r) => `${r.method} ${r.path} ${r.headers['if-match'] ?? '-'}`)).toEqual([
      `GET ${BASE} -`,
      `PUT ${BASE}/topics/alarms "e1"`,
      `GET ${BASE} -`,
      `DELETE ${BASE}/topics/media "e2"`,
      `GET ${BASE} -`,
    ]);
    expect(f.sent[1]!.json).toEqual({ is_enabled: true, delivery: { url: URL_B } });
    expect(f.io.stdout()).toBe(pipedConfig('"e3"', config({ topics: [events, alarms] })));
  });

  it('a removal without --yes and without a terminal: exit 2 after the read, nothing changed', async () => {
    const f = fakeDeps({ answers: [getAnswer('"e1"', config({ topics: [events, media] }))] });
    const error = (await webhookApplyRun(f.deps, { organizationId: ORG, desired: { topics: [events, alarms] }, source: 'd.json' }).catch((e: unknown) => e)) as Error & { exitCode: number; hint: string };
    expect([error.exitCode, error.message, error.hint]).toEqual([2, 'nothing applied: d.json removes the media topic: confirmation required', 'pass --yes to confirm when not running interactively']);
    expect(f.sent.map((r) => r.method)).toEqual(['GET']);
    expect(f.io.stdout()).toBe('');
  });

  it.each([
    ['y', ['GET', 'PUT', 'GET', 'DELETE', 'GET']],
    ['n', ['GET']],
  ])('a removal on a terminal is asked first, naming what stops (answer %s)', async (answer, methods) => {
    const answers = [getAnswer('"e1"', config({ topics: [events, media] }))];
    if (answer === 'y') {
      answers.push(
        { method: 'PUT', path: `${BASE}/topics/alarms`, body: config(), headers: { etag: '"e2"' } },
        getAnswer('"e2"', config({ topics: [events, media, alarms] })),
        { method: 'DELETE', path: `${BASE}/topics/media`, body: config() },
        getAnswer('"e3"', config({ topics: [events, alarms] })),
      );
    }
    const f = fakeDeps({ tty: true, inputs: [answer], answers });
    const outcome = await webhookApplyRun(f.deps, { organizationId: ORG, desired: { topics: [events, alarms] }, source: 'd.json' }).catch((e: unknown) => e);
    f.assertAllAnswered();
    expect(f.prompts).toEqual([`d.json removes the media topic: deliveries to ${URL_A} stop within 60 s. Apply 2 changes to the webhook configuration of organization ${ORG}?`]);
    expect(f.sent.map((r) => r.method)).toEqual(methods);
    if (answer === 'n') expect(outcome).toMatchObject({ exitCode: 2, message: 'nothing applied: d.json removes the media topic: not confirmed' });
  });

  it('adding and changing topics asks nothing, even without a terminal', async () => {
    const f = fakeDeps({
      answers: [getAnswer('"e1"', config({ topics: [events] })), { method: 'PUT', path: `${BASE}/topics/alarms`, body: config() }, getAnswer('"e2"', config({ topics: [events, alarms] }))],
    });
    await webhookApplyRun(f.deps, { organizationId: ORG, desired: { topics: [events, alarms] }, source: 'd.json' });
    f.assertAllAnswered();
    expect(f.prompts).toEqual([]);
  });

  it('is a no-op when nothing differs: no mutation at all', async () => {
    const f = fakeDeps({ answers: [getAnswer('"e1"', config({ is_enabled: true, topics: [alarms, events] }))] });
    await webhookApplyRun(f.deps, { organizationId: ORG, desired: { is_enabled: true, topics: [events, alarms] }, source: 'd.json' });
    f.assertAllAnswered();
    expect(f.sent.map((r) => r.method)).toEqual(['GET']);
    expect(f.io.stderr()).toBe(`No changes: the webhook configuration of organization ${ORG} already matches d.json.\n`);
    expect(f.io.stdout()).toBe(pipedConfig('"e1"', config({ is_enabled: true, topics: [alarms, events] })));
  });

  it('changes nothing when --if-match is stale (exit 6)', async () => {
    const f = fakeDeps({ answers: [getAnswer('"e2"')] });
    const error = (await webhookApplyRun(f.deps, { organizationId: ORG, desired: { topics: [alarms] }, source: 'd.json', ifMatch: '"e1"' }).catch((e: unknown) => e)) as StaleEtagError;
    expect(error).toBeInstanceOf(StaleEtagError);
    expect(error.exitCode).toBe(6);
    expect(error.message).toBe('the webhook configuration changed: its ETag is "e2", not "e1"');
    expect(f.sent.map((r) => r.method)).toEqual(['GET']);
  });

  it('sends the given --if-match on the first call', async () => {
    const f = fakeDeps({ answers: [getAnswer('"e1"'), problem('PUT', `${BASE}/topics/alarms`, 412, 'precondition.failed', 'changed')] });
    const error = (await webhookApplyRun(f.deps, { organizationId: ORG, desired: { topics: [events, alarms] }, source: 'd.json', ifMatch: '"e1"' }).catch((e: unknown) => e)) as ApiError;
    expect(f.sent[1]!.headers['if-match']).toBe('"e1"');
    expect(error.exitCode).toBe(6);
    expect(error.hint).toMatch(/^the configuration changed after ETag "e1" was read/);
  });
});
