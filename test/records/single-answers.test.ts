import { describe, expect, it } from 'vitest';
import { InvalidResponseError } from '../../src/errors.js';
import { issuedAuthKeyOf, webhookConfigOf } from '../../src/records/webhook-config.js';
import { acceptanceWith } from '../../src/records/acceptance.js';

const topic = { type: 'events', is_enabled: true, delivery: { url: 'https://hooks.example.com/a' } };

describe('webhookConfigOf: a GET answer read by the members the spec shows', () => {
  it('keeps every member the service sends, those the spec does not show too', () => {
    const body = { is_enabled: false, topics: [{ ...topic, retries: 3, delivery: { ...topic.delivery, secret_header: 'X' } }], tenant: 't1', auth_key_hint: '…ab' };
    expect(webhookConfigOf(body)).toEqual(body);
  });

  it('reads a configuration without the other members of the bundled document (no organization_id, no times, no hint)', () => {
    expect(webhookConfigOf({ is_enabled: true, topics: [topic] })).toEqual({ is_enabled: true, topics: [topic] });
  });

  it('reads a left-out topics list as no topics, and keeps a topic type the spec does not list', () => {
    expect(webhookConfigOf({ is_enabled: false }).topics).toEqual([]);
    expect(webhookConfigOf({ is_enabled: false, topics: [{ ...topic, type: 'diagnostics' }] }).topics[0]!.type).toBe('diagnostics');
  });

  it.each([
    [null, 'with something that is not an object'],
    ['<html>', 'with something that is not an object'],
    [[topic], 'with something that is not an object'],
    [{ enabled: true, topics: [] }, 'without a boolean is_enabled'],
    [{ is_enabled: 'true', topics: [] }, 'without a boolean is_enabled'],
    [{ is_enabled: true, topics: {} }, 'with topics that is not a list'],
    [{ is_enabled: true, topics: [topic, 'events'] }, 'with topics[1] not an object'],
    [{ is_enabled: true, topics: [{ ...topic, type: 5 }] }, 'with topics[0] without a type'],
    [{ is_enabled: true, topics: [{ ...topic, is_enabled: 'yes' }] }, 'with topics[0] without a boolean is_enabled'],
    [{ is_enabled: true, topics: [{ ...topic, delivery: { uri: 'https://x' } }] }, 'with topics[0] without a delivery.url'],
    [{ is_enabled: true, topics: [], auth_key_hint: 7 }, 'with an auth_key_hint that is not text'],
  ])('refuses %j as an invalid answer naming what is wrong', (body, what) => {
    expect(() => webhookConfigOf(body)).toThrow(InvalidResponseError);
    expect(() => webhookConfigOf(body)).toThrow(`the service answered the webhook configuration ${what}`);
  });
});

describe('issuedAuthKeyOf: the key a rotation answers once', () => {
  it.each([
    [{ auth_key: 'k-123', auth_key_hint: '…23' }, 'k-123'],
    [{ auth_key: '' }, undefined],
    [{ auth_key: 42 }, undefined],
    [{ key: 'k' }, undefined],
    [undefined, undefined],
    ['k-123', undefined],
  ])('%j: %s', (body, expected) => {
    expect(issuedAuthKeyOf(body)).toBe(expected);
  });
});

describe('acceptanceWith: a command acceptance with what --wait adds', () => {
  it('adds to an object answer, the member fleetctl adds winning a clash', () => {
    expect(acceptanceWith({ id: 'c1', wait: 'x', status: 'accepted' }, { wait: 'back', back_after_s: 4 })).toEqual({ id: 'c1', wait: 'back', status: 'accepted', back_after_s: 4 });
  });

  it('is only what it adds when the service sent no body', () => {
    expect(acceptanceWith(undefined, { wait: 'back' })).toEqual({ wait: 'back' });
    expect(acceptanceWith(null, { wait: 'back' })).toEqual({ wait: 'back' });
  });

  it('keeps text or a list whole under response rather than spreading it', () => {
    expect(acceptanceWith('accepted', { wait: 'back' })).toEqual({ response: 'accepted', wait: 'back' });
    expect(acceptanceWith(['a'], { wait: 'back' })).toEqual({ response: ['a'], wait: 'back' });
  });
});
