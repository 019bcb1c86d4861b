import { describe, expect, it } from 'vitest';
import * as webhooks from '../../src/webhooks/index.js';

describe('src/webhooks/index.ts', () => {
  it('exports the building blocks', () => {
    for (const name of ['checkCallbackUrl', 'isBlockedAddress', 'buildEnvelope', 'sampleEvent', 'validateEnvelope',
      'postDelivery', 'approveDestination', 'startReceiver', 'triggerSampleEvent', 'TOPIC_OF_EVENT_TYPE', 'TOPIC_TYPES', 'EVENT_TYPES']) {
      expect(webhooks, name).toHaveProperty(name);
    }
  });
});
