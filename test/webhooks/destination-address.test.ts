import { describe, expect, it } from 'vitest';
import { approveDestination, pinnedLookup } from '../../src/webhooks/destination-address.js';
import type { Resolver } from '../../src/webhooks/destination-address.js';

const fixed = (...addresses: string[]): Resolver => async () =>
  addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));

describe('approveDestination', () => {
  it('approves the first answer when every answer is public', async () => {
    expect(await approveDestination('https://hooks.example.com/x', { resolve: fixed('2606:4700::1', '93.184.216.34'), allowPrivate: false }))
      .toEqual({ ok: true, address: '2606:4700::1', family: 6 });
  });
  it('uses a literal host without resolving', async () => {
    const resolve: Resolver = async () => { throw new Error('must not resolve'); };
    expect(await approveDestination('https://[2606:4700::1]:8443/x', { resolve, allowPrivate: false }))
      .toEqual({ ok: true, address: '2606:4700::1', family: 6 });
    expect(await approveDestination('http://127.0.0.1:3000/x', { resolve, allowPrivate: true }))
      .toEqual({ ok: true, address: '127.0.0.1', family: 4 });
  });
  it('lets private answers through with allowPrivate', async () => {
    expect(await approveDestination('https://hooks.example.com/x', { resolve: fixed('10.0.0.1'), allowPrivate: true }))
      .toEqual({ ok: true, address: '10.0.0.1', family: 4 });
  });
  it('treats an empty answer as a retryable failure', async () => {
    expect(await approveDestination('https://hooks.example.com/x', { resolve: fixed(), allowPrivate: false }))
      .toEqual({ ok: false, blocked: false, reason: 'DNS lookup of hooks.example.com returned no address' });
  });
  it('fails closed on an unparsable answer', async () => {
    expect(await approveDestination('https://hooks.example.com/x', { resolve: fixed('93.184.216.34', 'garbage'), allowPrivate: false }))
      .toMatchObject({ ok: false, blocked: true, reason: expect.stringMatching(/garbage, in a blocked range \(not an IP address\)/) });
  });
});

describe('pinnedLookup', () => {
  it('answers both lookup forms net.connect uses with the pinned address only', () => {
    const lookup = pinnedLookup('203.0.113.9', 4);
    const single: unknown[] = [];
    lookup('anything.example', {}, (...args) => single.push(...args));
    expect(single).toEqual([null, '203.0.113.9', 4]);
    const all: unknown[] = [];
    lookup('anything.example', { all: true }, (...args) => all.push(...args));
    expect(all).toEqual([null, [{ address: '203.0.113.9', family: 4 }]]);
  });
});
