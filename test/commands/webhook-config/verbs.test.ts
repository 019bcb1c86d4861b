import { describe, expect, it } from 'vitest';
import type { Command } from 'commander';
import { ApiError, UsageError } from '../../../src/errors.js';
import { newWebhookGetCommand, webhookGetRun } from '../../../src/commands/webhook-config/get.js';
import { newWebhookCreateCommand, webhookCreateRun } from '../../../src/commands/webhook-config/create.js';
import { newWebhookEnableCommand, newWebhookDisableCommand, webhookSetEnabledRun } from '../../../src/commands/webhook-config/set-enabled.js';
import { newWebhookDeleteCommand, webhookDeleteRun } from '../../../src/commands/webhook-config/delete.js';
import { newWebhookRegenerateKeyCommand, webhookRegenerateKeyRun } from '../../../src/commands/webhook-config/regenerate-key.js';
import { newWebhookTopicSetCommand, webhookTopicSetRun } from '../../../src/commands/webhook-config/topics/set.js';
import { newWebhookTopicRemoveCommand, webhookTopicRemoveRun } from '../../../src/commands/webhook-config/topics/remove.js';
import type { Deps } from '../../../src/factory.js';
import { fakeDeps, parseVerb, recordRun } from '../fake-deps.js';
import { BASE, config, getAnswer, noConfig, ORG, pipedConfig, problem, URL_A, URL_B } from './webhook-fixtures.js';

type Factory = (deps: Deps, run: (deps: unknown, opts: Record<string, unknown>) => Promise<void>) => Command;

const parseCases: { verb: string; make: Factory; argv: string[]; want?: Record<string, unknown>; error?: string }[] = [
  { verb: 'get', make: newWebhookGetCommand as unknown as Factory, argv: [], want: { organizationId: undefined } },
  { verb: 'get', make: newWebhookGetCommand as unknown as Factory, argv: ['--org', ORG.toUpperCase()], want: { organizationId: ORG } },
  { verb: 'get', make: newWebhookGetCommand as unknown as Factory, argv: ['--org', 'acme'], error: '--org must be a UUID (like 3f2b8c1e-0000-4000-8000-000000000000), got "acme"' },
  { verb: 'create', make: newWebhookCreateCommand as unknown as Factory, argv: ['--url', URL_A, '--topics', 'events,alarms'], want: { url: URL_A, topics: ['events', 'alarms'] } },
  { verb: 'create', make: newWebhookCreateCommand as unknown as Factory, argv: ['--url', URL_A, '--topics', 'events', '--topics', 'alarms, events'], want: { topics: ['events', 'alarms'] } },
  { verb: 'create', make: newWebhookCreateCommand as unknown as Factory, argv: ['--url', URL_A, '--topics', 'events,sms'], error: 'unknown --topics topic type "sms"' },
  { verb: 'create', make: newWebhookCreateCommand as unknown as Factory, argv: ['--url', URL_A, '--topics', ','], error: '--topics needs at least one topic type' },
  { verb: 'create', make: newWebhookCreateCommand as unknown as Factory, argv: ['--topics', 'events'], error: "required option '--url <url>' not specified" },
  {
    verb: 'create',
    make: newWebhookCreateCommand as unknown as Factory,
    argv: ['--url', 'http://hooks.example.com/fleet', '--topics', 'events'],
    error: '--url is refused (webhook.invalid_url): The callback URL must use https, not http.',
  },
  {
    verb: 'create',
    make: newWebhookCreateCommand as unknown as Factory,
    argv: ['--url', 'https://10.1.2.3/hook', '--topics', 'events'],
    error: '--url is refused (webhook.ssrf_blocked): The callback host 10.1.2.3 is a literal address in a blocked range (private).',
  },
  { verb: 'create', make: newWebhookCreateCommand as unknown as Factory, argv: ['--url', 'https://[::1]/hook', '--topics', 'events'], error: '(webhook.ssrf_blocked)' },
  {
    verb: 'create',
    make: newWebhookCreateCommand as unknown as Factory,
    argv: ['--url', 'http://127.0.0.1:8080/hook', '--topics', 'events', '--allow-private-url'],
    want: { url: 'http://127.0.0.1:8080/hook' },
  },
  {
    verb: 'topics set',
    make: newWebhookTopicSetCommand as unknown as Factory,
    argv: ['events', '--url', 'https://10.0.0.5/hook', '--allow-private-url'],
    want: { url: 'https://10.0.0.5/hook' },
  },
  {
    verb: 'topics set',
    make: newWebhookTopicSetCommand as unknown as Factory,
    argv: ['events', '--url', 'http://hooks.example.com/hook', '--allow-private-url'],
    error: 'The callback URL must use https, not http.',
  },
  { verb: 'create', make: newWebhookCreateCommand as unknown as Factory, argv: ['--url', 'hooks.example.com', '--topics', 'events'], error: 'The callback URL is not an absolute URL.' },
  {
    verb: 'create',
    make: newWebhookCreateCommand as unknown as Factory,
    argv: ['--url', `https://hooks.example.com/${'x'.repeat(2030)}`, '--topics', 'events'],
    error: 'The callback URL is 2056 characters long; at most 2048 are allowed.',
  },
  { verb: 'enable', make: newWebhookEnableCommand as unknown as Factory, argv: [], want: { enabled: true, ifMatch: undefined } },
  { verb: 'enable', make: newWebhookEnableCommand as unknown as Factory, argv: ['--if-match', 'abc'], want: { enabled: true, ifMatch: '"abc"' } },
  { verb: 'disable', make: newWebhookDisableCommand as unknown as Factory, argv: ['--if-match', '"abc"'], want: { enabled: false, ifMatch: '"abc"' } },
  { verb: 'disable', make: newWebhookDisableCommand as unknown as Factory, argv: ['--if-match', ' '], error: '--if-match must not be empty' },
  { verb: 'disable', make: newWebhookDisableCommand as unknown as Factory, argv: ['--if-match', '"a","b"'], error: '--if-match must be one ETag' },
  { verb: 'delete', make: newWebhookDeleteCommand as unknown as Factory, argv: ['--yes', '--org', ORG], want: { yes: true, organizationId: ORG } },
  { verb: 'delete', make: newWebhookDeleteCommand as unknown as Factory, argv: [], want: { yes: false } },
  { verb: 'regenerate-key', make: newWebhookRegenerateKeyCommand as unknown as Factory, argv: ['--if-match', 'W/"x"'], want: { ifMatch: 'W/"x"', yes: false } },
  { verb: 'regenerate-key', make: newWebhookRegenerateKeyCommand as unknown as Factory, argv: ['-y'], want: { yes: true } },
  { verb: 'topics set', make: newWebhookTopicSetCommand as unknown as Factory, argv: ['alarms', '--url', URL_B, '--disabled'], want: { type: 'alarms', url: URL_B, enabled: false } },
  { verb: 'topics set', make: newWebhookTopicSetCommand as unknown as Factory, argv: ['live_gps', '--url', URL_B], want: { type: 'live_gps', enabled: true } },
  { verb: 'topics set', make: newWebhookTopicSetCommand as unknown as Factory, argv: ['sms', '--url', URL_B], error: 'unknown topic type "sms"' },
  { verb: 'topics set', make: newWebhookTopicSetCommand as unknown as Factory, argv: ['alarms', '--url', 'https://169.254.169.254/'], error: '(webhook.ssrf_blocked)' },
  { verb: 'topics set', make: newWebhookTopicSetCommand as unknown as Factory, argv: ['alarms', '--url', 'https://[::ffff:127.0.0.1]/'], error: '(webhook.ssrf_blocked)' },
  { verb: 'topics remove', make: newWebhookTopicRemoveCommand as unknown as Factory, argv: ['media'], want: { type: 'media', yes: false } },
  { verb: 'topics remove', make: newWebhookTopicRemoveCommand as unknown as Factory, argv: ['media', '--yes'], want: { type: 'media', yes: true } },
  { verb: 'topics remove', make: newWebhookTopicRemoveCommand as unknown as Factory, argv: ['Media'], error: 'unknown topic type "Media"' },
];

describe('webhook-config: parse', () => {
  for (const c of parseCases) {
    it(`${c.verb} ${c.argv.join(' ')}`, async () => {
      const f = fakeDeps();
      const { run, calls } = recordRun<Record<string, unknown>>();
      const promise = parseVerb(c.make(f.deps, run), c.argv);
      if (c.error) {
        await expect(promise).rejects.toThrow(c.error);
      } else {
        await promise;
        expect(calls[0]).toMatchObject(c.want!);
      }
      expect(f.sent).toEqual([]);
    });
  }
});

describe('webhook-config get', () => {
  it.each([false, true])('shows the configuration with its ETag (tty %s)', async (tty) => {
    const f = fakeDeps({ tty, organizationId: ORG, answers: [getAnswer('"e1"')] });
    await webhookGetRun(f.deps, {});
    f.assertAllAnswered();
    expect(f.sent[0]!.scope).toBe('thirdparty.api.webhooks_read');
    if (tty) expect(f.io.stdout()).toMatch(/etag\S*\s*│\s*"e1"/);
    else expect(f.io.stdout()).toBe(pipedConfig('"e1"'));
    expect(f.io.stderr()).toBe('');
  });

  it('prints JSON as the API has it, plus the etag', async () => {
    const f = fakeDeps({ format: 'json', answers: [getAnswer('"e1"')] });
    await webhookGetRun(f.deps, { organizationId: ORG });
    expect(JSON.parse(f.io.stdout())).toEqual({ ...config(), etag: '"e1"' });
  });

  it('explains a 404 (exit 5)', async () => {
    const f = fakeDeps({ answers: [noConfig] });
    const error = (await webhookGetRun(f.deps, { organizationId: ORG }).catch((e: unknown) => e)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.exitCode).toBe(5);
    expect(error.hint).toBe(`organization ${ORG} has no webhook configuration: create one with \`fleetctl webhook-config create --org ${ORG} --url https://... --topics events\``);
  });

  it('needs an organization (exit 2, before any request)', async () => {
    const f = fakeDeps();
    const error = (await webhookGetRun(f.deps, {}).catch((e: unknown) => e)) as UsageError;
    expect(error).toBeInstanceOf(UsageError);
    expect(error.message).toBe('no organization given');
    expect(error.hint).toBe('pass --org UUID, or set a default with `fleetctl config set organization_id UUID` or FLEETCTL_ORGANIZATION_ID=UUID');
    expect(f.sent).toEqual([]);
  });

  it('refuses a default organization that is not a uuid', async () => {
    const f = fakeDeps({ organizationId: 'root' });
    await expect(webhookGetRun(f.deps, {})).rejects.toThrow('FLEETCTL_ORGANIZATION_ID must be a UUID');
    expect(f.sent).toEqual([]);
  });
});

describe('webhook-config create', () => {
  it.each([false, true])('sends the first PUT disabled and without If-Match, then shows the new config (tty %s)', async (tty) => {
    const created = config({ topics: [{ type: 'events', is_enabled: true, delivery: { url: URL_A } }, { type: 'alarms', is_enabled: true, delivery: { url: URL_A } }] });
    const f = fakeDeps({
      tty,
      organizationId: ORG,
      answers: [{ method: 'PUT', path: BASE, status: 201, body: created, headers: { etag: '"e1"' } }, getAnswer('"e1"', created)],
    });
    await webhookCreateRun(f.deps, { url: URL_A, topics: ['events', 'alarms'] });
    f.assertAllAnswered();
    expect(f.sent[0]!.json).toEqual({ is_enabled: false, topics: created.topics });
    expect(f.sent[0]!.headers['if-match']).toBeUndefined();
    expect(f.sent[0]!.scope).toBe('thirdparty.api.webhooks_write');
    if (!tty) expect(f.io.stdout()).toBe(pipedConfig('"e1"', created));
    expect(f.io.stderr()).toBe(
      `Created the webhook configuration of organization ${ORG}, disabled: nothing is delivered yet.\nEnable delivery with: fleetctl webhook-config enable --org ${ORG}\n`,
    );
  });

  it('says what to do when a configuration already exists (412, exit 6)', async () => {
    const f = fakeDeps({ answers: [problem('PUT', BASE, 412, 'precondition.required', 'If-Match is required once a webhook configuration exists.')] });
    const error = (await webhookCreateRun(f.deps, { organizationId: ORG, url: URL_A, topics: ['events'] }).catch((e: unknown) => e)) as ApiError;
    expect(error.exitCode).toBe(6);
    // the hint's commands name the organization: without --org they would act on the profile's default one
    expect(error.hint).toBe(
      `organization ${ORG} already has a webhook configuration: review it with \`fleetctl webhook-config get --org ${ORG}\`, change topics with \`fleetctl webhook-config topics set --org ${ORG}\`, or manage it with \`fleetctl webhook-config apply --org ${ORG}\``,
    );
    expect(f.io.stdout()).toBe('');
  });
});

describe('webhook-config enable / disable', () => {
  it.each([false, true])('reads the ETag, PATCHes with If-Match and shows the re-read config (tty %s)', async (tty) => {
    const enabled = config({ is_enabled: true });
    const f = fakeDeps({
      tty,
      answers: [getAnswer('"e1"'), { method: 'PATCH', path: BASE, body: enabled, headers: { etag: '"e2"' } }, getAnswer('"e2"', enabled)],
    });
    await webhookSetEnabledRun(f.deps, { organizationId: ORG, enabled: true });
    f.assertAllAnswered();
    expect(f.sent[1]!.headers['if-match']).toBe('"e1"');
    expect(f.sent[1]!.json).toEqual({ is_enabled: true });
    if (!tty) expect(f.io.stdout()).toBe(pipedConfig('"e2"', enabled));
    expect(f.io.stderr()).toBe(`Webhook delivery of organization ${ORG} enabled; the change takes up to 60 s to propagate.\n`);
  });

  it('makes no change when already in that state', async () => {
    const f = fakeDeps({ answers: [getAnswer('"e1"')] });
    await webhookSetEnabledRun(f.deps, { organizationId: ORG, enabled: false });
    f.assertAllAnswered();
    expect(f.io.stdout()).toBe(pipedConfig('"e1"'));
    expect(f.io.stderr()).toBe(`Webhook delivery of organization ${ORG} is already disabled; nothing changed.\n`);
  });

  it('sends --if-match as given, without reading first; stale answers 412 (exit 6) with what to do', async () => {
    const f = fakeDeps({ answers: [problem('PATCH', BASE, 412, 'precondition.failed', 'The webhook configuration has changed.')] });
    const error = (await webhookSetEnabledRun(f.deps, { organizationId: ORG, enabled: false, ifMatch: '"old"' }).catch((e: unknown) => e)) as ApiError;
    expect(f.sent[0]!.headers['if-match']).toBe('"old"');
    expect(error.exitCode).toBe(6);
    expect(error.message).toBe('The webhook configuration has changed.');
    expect(error.hint).toBe(
      `the configuration changed after ETag "old" was read: review it with \`fleetctl webhook-config get --org ${ORG}\` and retry with its new ETag (or without --if-match to act on the current configuration)`,
    );
  });

  it('passes a 403 through (exit 4) with the scope named', async () => {
    const denied = { ...problem('PATCH', BASE, 403, 'auth.scope_missing', 'This operation requires the scope thirdparty.api.webhooks_write.') };
    (denied.body as Record<string, unknown>).required_scope = 'thirdparty.api.webhooks_write';
    const f = fakeDeps({ answers: [getAnswer('"e1"'), denied] });
    const error = (await webhookSetEnabledRun(f.deps, { organizationId: ORG, enabled: true }).catch((e: unknown) => e)) as ApiError;
    expect(error.exitCode).toBe(4);
    expect(error.hint).toContain('thirdparty.api.webhooks_write');
  });

  it('explains a change by another client between read and write', async () => {
    const f = fakeDeps({ answers: [getAnswer('"e1"'), problem('PATCH', BASE, 412, 'precondition.failed', 'changed')] });
    const error = (await webhookSetEnabledRun(f.deps, { organizationId: ORG, enabled: true }).catch((e: unknown) => e)) as ApiError;
    expect(error.hint).toBe(
      `the configuration changed between fleetctl reading it and writing it (another client is editing it): review it with \`fleetctl webhook-config get --org ${ORG}\` and run the command again`,
    );
  });
});

describe('webhook-config delete', () => {
  it('refuses without --yes when it may not prompt, before any request (exit 2)', async () => {
    const f = fakeDeps({ tty: false });
    const error = (await webhookDeleteRun(f.deps, { organizationId: ORG, yes: false }).catch((e: unknown) => e)) as UsageError;
    expect(error.message).toBe('webhook configuration not deleted: confirmation required');
    expect(error.exitCode).toBe(2);
    expect(f.sent).toEqual([]);
  });

  it('deletes with --yes and the current If-Match', async () => {
    const f = fakeDeps({ answers: [getAnswer('"e1"'), { method: 'DELETE', path: BASE, status: 204 }] });
    await webhookDeleteRun(f.deps, { organizationId: ORG, yes: true });
    f.assertAllAnswered();
    expect(f.sent[1]!.headers['if-match']).toBe('"e1"');
    expect(f.io.stdout()).toBe('');
    expect(f.io.stderr()).toBe(`Deleted the webhook configuration of organization ${ORG}; deliveries may continue for up to 60 s while the change propagates.\n`);
  });

  it('asks on a terminal, describing what goes', async () => {
    const f = fakeDeps({ tty: true, inputs: ['y'], answers: [getAnswer('"e1"'), { method: 'DELETE', path: BASE, status: 204 }] });
    await webhookDeleteRun(f.deps, { organizationId: ORG, yes: false });
    f.assertAllAnswered();
    expect(f.prompts).toEqual([`Delete the webhook configuration of organization ${ORG} (disabled, 1 topic)?`]);
  });

  it('deletes nothing when the answer is no', async () => {
    const f = fakeDeps({ tty: true, inputs: ['n'], answers: [getAnswer('"e1"')] });
    await expect(webhookDeleteRun(f.deps, { organizationId: ORG, yes: false })).rejects.toThrow('webhook configuration not deleted: not confirmed');
    f.assertAllAnswered();
  });
});

describe('webhook-config regenerate-key', () => {
  const key = 'whk_NEWKEY0123456789abcdefghij';
  const answers = () => [
    getAnswer('"e1"'),
    { method: 'POST', path: `${BASE}/regenerate-auth-key`, body: { auth_key: key }, headers: { etag: '"e2"' } },
    getAnswer('"e2"', config({ auth_key_hint: '…ghij' })),
  ];

  it.each([false, true])('prints the key once on stdout and warns on stderr (tty %s, --yes)', async (tty) => {
    const f = fakeDeps({ tty, answers: answers() });
    await webhookRegenerateKeyRun(f.deps, { organizationId: ORG, yes: true });
    f.assertAllAnswered();
    expect(f.sent[1]!.headers['if-match']).toBe('"e1"');
    expect(f.io.stdout()).toBe(`${key}\n`);
    expect(f.io.stderr()).toBe(
      'Save this key now: it will not be shown again.\nThe previous key may stay valid for up to 60 s while the change propagates.\nKey hint …ghij; new ETag "e2".\n',
    );
    expect(f.prompts).toEqual([]);
  });

  it('refuses without --yes when it may not prompt, before any request (exit 2)', async () => {
    const f = fakeDeps({ tty: false });
    const error = (await webhookRegenerateKeyRun(f.deps, { organizationId: ORG, yes: false }).catch((e: unknown) => e)) as UsageError;
    expect(error).toBeInstanceOf(UsageError);
    expect([error.exitCode, error.message, error.hint]).toEqual([2, 'webhook key not regenerated: confirmation required', 'pass --yes to confirm when not running interactively']);
    expect(f.sent).toEqual([]);
  });

  it('asks on a terminal, saying what receivers will do, then rotates', async () => {
    const f = fakeDeps({ tty: true, inputs: ['y'], answers: answers() });
    await webhookRegenerateKeyRun(f.deps, { organizationId: ORG, yes: false });
    f.assertAllAnswered();
    expect(f.prompts).toEqual([
      `Receivers that still check the old key start refusing deliveries within 60 s. Regenerate the webhook key of organization ${ORG} (now …x7Qa)?`,
    ]);
    expect(f.io.stdout()).toBe(`${key}\n`);
  });

  it('on a terminal, a no rotates nothing (exit 2); the hint from the API is shown harmless', async () => {
    const f = fakeDeps({ tty: true, inputs: ['n'], answers: [getAnswer('"e1"', config({ auth_key_hint: '…\u001b[2Jx' }))] });
    const error = (await webhookRegenerateKeyRun(f.deps, { organizationId: ORG, yes: false }).catch((e: unknown) => e)) as UsageError;
    f.assertAllAnswered();
    expect([error.exitCode, error.message]).toEqual([2, 'webhook key not regenerated: not confirmed']);
    expect(f.prompts[0]).toContain('(now …\\x1b[2Jx)?');
    expect(f.sent.map((s) => s.method)).toEqual(['GET']);
  });

  it('prints {"auth_key": ...} with --json', async () => {
    const f = fakeDeps({ format: 'json', answers: answers() });
    await webhookRegenerateKeyRun(f.deps, { organizationId: ORG, yes: true });
    expect(JSON.parse(f.io.stdout())).toEqual({ auth_key: key });
    expect(f.io.stderr()).not.toContain(key);
  });
});

describe('webhook-config topics', () => {
  it('set: PUT topic with the current If-Match, then shows the config', async () => {
    const after = config({ topics: [...config().topics, { type: 'alarms', is_enabled: false, delivery: { url: URL_B } }] });
    const f = fakeDeps({
      answers: [getAnswer('"e1"'), { method: 'PUT', path: `${BASE}/topics/alarms`, body: after, headers: { etag: '"e2"' } }, getAnswer('"e2"', after)],
    });
    await webhookTopicSetRun(f.deps, { organizationId: ORG, type: 'alarms', url: URL_B, enabled: false });
    f.assertAllAnswered();
    expect(f.sent[1]!.json).toEqual({ is_enabled: false, delivery: { url: URL_B } });
    expect(f.sent[1]!.headers['if-match']).toBe('"e1"');
    expect(f.io.stdout()).toBe(pipedConfig('"e2"', after));
    expect(f.io.stderr()).toBe(`Set topic alarms ${URL_B} (disabled).\n`);
  });

  it('set: refuses to go beyond 25 topics before writing', async () => {
    const many = config({ topics: Array.from({ length: 25 }, (_, i) => ({ type: 'events' as const, is_enabled: true, delivery: { url: `${URL_A}/${i}` } })) });
    const f = fakeDeps({ answers: [getAnswer('"e1"', many)] });
    await expect(webhookTopicSetRun(f.deps, { organizationId: ORG, type: 'alarms', url: URL_B, enabled: true })).rejects.toThrow(
      'setting the alarms topic would make 26 topics; a configuration holds at most 25',
    );
    f.assertAllAnswered();
  });

  it('remove: DELETE topic with If-Match', async () => {
    const f = fakeDeps({
      answers: [getAnswer('"e1"'), { method: 'DELETE', path: `${BASE}/topics/alarms`, body: config(), headers: { etag: '"e2"' } }, getAnswer('"e2"')],
    });
    await webhookTopicRemoveRun(f.deps, { organizationId: ORG, type: 'alarms', yes: true });
    f.assertAllAnswered();
    expect(f.sent[1]!.headers['if-match']).toBe('"e1"');
    expect(f.io.stderr()).toBe('Removed the alarms topic; its deliveries stop within 60 s while the change propagates.\n');
  });

  const withAlarms = () => config({ topics: [...config().topics, { type: 'alarms', is_enabled: true, delivery: { url: URL_B } }] });

  it('remove: refuses without --yes when it may not prompt, before any request (exit 2)', async () => {
    const f = fakeDeps({ tty: false });
    const error = (await webhookTopicRemoveRun(f.deps, { organizationId: ORG, type: 'alarms', yes: false }).catch((e: unknown) => e)) as UsageError;
    expect(error).toBeInstanceOf(UsageError);
    expect([error.exitCode, error.message, error.hint]).toEqual([2, 'alarms topic not removed: confirmation required', 'pass --yes to confirm when not running interactively']);
    expect(f.sent).toEqual([]);
  });

  it.each([
    ['y', ['GET', 'DELETE', 'GET']],
    ['n', ['GET']],
  ])('remove: asks on a terminal, naming where deliveries stop (answer %s)', async (answer, methods) => {
    const f = fakeDeps({
      tty: true,
      inputs: [answer],
      answers:
        answer === 'y'
          ? [getAnswer('"e1"', withAlarms()), { method: 'DELETE', path: `${BASE}/topics/alarms`, body: config(), headers: { etag: '"e2"' } }, getAnswer('"e2"')]
          : [getAnswer('"e1"', withAlarms())],
    });
    const outcome = await webhookTopicRemoveRun(f.deps, { organizationId: ORG, type: 'alarms', yes: false }).catch((e: unknown) => e);
    f.assertAllAnswered();
    expect(f.prompts).toEqual([`Deliveries of alarms to ${URL_B} stop within 60 s. Remove the alarms topic of organization ${ORG}?`]);
    expect(f.sent.map((s) => s.method)).toEqual(methods);
    if (answer === 'n') expect(outcome).toMatchObject({ exitCode: 2, message: 'alarms topic not removed: not confirmed' });
  });

  it('remove: does not ask about a topic the API will refuse to remove (the last one)', async () => {
    const f = fakeDeps({ tty: true, answers: [getAnswer('"e1"'), problem('DELETE', `${BASE}/topics/events`, 409, 'webhook.last_topic', 'This is the last remaining topic.')] });
    const error = (await webhookTopicRemoveRun(f.deps, { organizationId: ORG, type: 'events', yes: false }).catch((e: unknown) => e)) as ApiError;
    expect(error.exitCode).toBe(6);
    expect(f.prompts).toEqual([]);
  });

  it('remove: explains the 409 on the last topic (exit 6)', async () => {
    const f = fakeDeps({ answers: [getAnswer('"e1"'), problem('DELETE', `${BASE}/topics/events`, 409, 'webhook.last_topic', 'This is the last remaining topic.')] });
    const error = (await webhookTopicRemoveRun(f.deps, { organizationId: ORG, type: 'events', yes: true }).catch((e: unknown) => e)) as ApiError;
    expect(error.exitCode).toBe(6);
    expect(error.hint).toMatch(/^a configuration keeps at least one topic: set another topic first/);
  });

  it('remove: explains a type the configuration does not have (exit 5)', async () => {
    const f = fakeDeps({ answers: [getAnswer('"e1"'), problem('DELETE', `${BASE}/topics/media`, 404, 'resource.not_found', 'Topic media not found.')] });
    const error = (await webhookTopicRemoveRun(f.deps, { organizationId: ORG, type: 'media', yes: true }).catch((e: unknown) => e)) as ApiError;
    expect(error.exitCode).toBe(5);
    expect(error.hint).toBe(`the configuration has no media topic: see its topics with \`fleetctl webhook-config get --org ${ORG}\``);
  });
});
