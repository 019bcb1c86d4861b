// One way to answer a mistyped name: profiles, settings, topic types, fields and hardware ids in the wrong case.
import { describe, expect, it } from 'vitest';
import { closestNames, didYouMean, didYouMeanSuffix, sameButForCase } from '../../src/shared/did-you-mean.js';
import { PROFILE_KEYS } from '../../src/config/store.js';
import { TOPIC_TYPES } from '../../src/webhooks/index.js';
import { requireProfileKey } from '../../src/commands/config/keys.js';
import { requireTopicType, topicTypeList } from '../../src/commands/webhook-config/topic-input.js';

describe('didYouMean', () => {
  it.each([
    ['readr', ['default', 'reader', 'staging'], 'did you mean reader?'],
    ['base-url', PROFILE_KEYS, 'did you mean base_url?'],
    ['alarm', TOPIC_TYPES, 'did you mean alarms?'],
    ['Media', TOPIC_TYPES, 'did you mean media?'],
    ['livegps', TOPIC_TYPES, 'did you mean live_gps?'],
  ] as const)('%s among %j: %s', (typed, known, said) => expect(didYouMean(typed, known)).toBe(said));

  it('nothing near: no suggestion, and the suffix is empty', () => {
    expect(didYouMean('sms', TOPIC_TYPES)).toBeUndefined();
    expect(didYouMeanSuffix('sms', TOPIC_TYPES)).toBe('');
    expect(didYouMeanSuffix('nme', ['name'])).toBe(' (did you mean name?)');
  });

  it('names two or three when they are near, nearest first', () => {
    expect(closestNames('readr', ['prod', 'readers', 'reader'])).toEqual(['reader', 'readers']);
    expect(didYouMean('readr', ['prod', 'readers', 'reader'])).toBe('did you mean reader or readers?');
  });

  it('sameButForCase keeps only an identifier that differs by case: never a neighbour', () => {
    expect(sameButForCase('hw-000001', ['HW-000001', 'HW-000002', 'hw-000001'])).toEqual(['HW-000001']);
    expect(sameButForCase('HW-000003', ['HW-000001'])).toEqual([]);
  });
});

describe('the names it checks', () => {
  it('a setting: base-url is refused naming base_url', () => {
    expect(() => requireProfileKey('base-url')).toThrow(/^unknown setting "base-url" \(did you mean base_url\?\)$/);
    expect(requireProfileKey('base_url')).toBe('base_url');
  });

  it('a topic type: alarm is refused naming alarms, on its own and in a list', () => {
    expect(() => requireTopicType('alarm')).toThrow(/^unknown topic type "alarm" \(did you mean alarms\?\)$/);
    expect(() => topicTypeList(['events,alarm'], '--topics')).toThrow(/^unknown --topics topic type "alarm" \(did you mean alarms\?\)$/);
  });
});
