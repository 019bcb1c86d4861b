// The one redirect decision: same-origin 307/308 for a request that may be repeated; any origin for a download,
// without credentials; everything else refused with the reason, a loop and more than MAX_REDIRECTS hops included.
import { describe, expect, it } from 'vitest';
import { decideRedirect, MAX_REDIRECTS, type RedirectQuestion } from '../../src/shared/redirect.js';

const API = 'https://api.fleet.test/v1/devices/1';

function ask(over: Partial<RedirectQuestion>): ReturnType<typeof decideRedirect> {
  return decideRedirect({ status: 308, method: 'GET', url: API, headers: { authorization: 'Bearer t' }, location: '/v2/devices/1', download: false, visited: [API], ...over });
}

describe('decideRedirect', () => {
  it.each([
    ['a 308 to the same origin, GET', {}, 'https://api.fleet.test/v2/devices/1'],
    ['a 307, HEAD', { status: 307, method: 'HEAD' }, 'https://api.fleet.test/v2/devices/1'],
    ['a PUT with If-Match', { method: 'PUT', headers: { 'If-Match': 'W/"1"' } }, 'https://api.fleet.test/v2/devices/1'],
    ['a DELETE with If-Match, absolute Location', { method: 'DELETE', headers: { 'if-match': '"1"' }, location: 'https://api.fleet.test/x' }, 'https://api.fleet.test/x'],
  ])('follows %s, with its credentials', (_name, over, url) => {
    expect(ask(over)).toEqual({ follow: true, url, withoutCredentials: false });
  });

  it.each([301, 302, 303, 307, 308])('follows a download\'s %i to another origin, without credentials', (status) => {
    const signed = 'https://media.fleet.test/m/1?sig=x';
    expect(ask({ status, url: signed, headers: {}, download: true, location: 'https://blobs.example/abc?sas=y', visited: [signed] })).toEqual({ follow: true, url: 'https://blobs.example/abc?sas=y', withoutCredentials: true });
  });

  it.each([
    ['another origin for an API call', { location: 'https://elsewhere.example/v1/devices/1' }, /another origin/],
    ['a 301 (it may turn the method into GET)', { status: 301 }, /HTTP 301 may change the method/],
    ['a 302', { status: 302 }, /HTTP 302 may change the method/],
    ['a POST, even with a 307', { status: 307, method: 'POST' }, /^a POST is not sent twice$/],
    ['a PUT without If-Match', { method: 'PUT', headers: {} }, /^a PUT without If-Match is not sent twice$/],
    ['a PATCH with If-Match', { method: 'PATCH', headers: { 'if-match': '"1"' } }, /^a PATCH is not sent twice$/],
    ['a 304', { status: 304 }, /HTTP 304 is not a redirect fleetctl follows/],
    ['a 300', { status: 300 }, /HTTP 300 is not a redirect/],
    ['no Location', { location: undefined }, /names no Location/],
    ['a Location that is no URL', { location: 'http://[::1' }, /not a URL/],
    ['a Location of another scheme', { location: 'ftp://api.fleet.test/x' }, /not an http\(s\) URL/],
    ['https to http, even for a download', { download: true, location: 'http://api.fleet.test/v2/devices/1' }, /from https to plain http/],
    ['a loop', { visited: [API, 'https://api.fleet.test/v2/devices/1'] }, /loop/],
  ])('refuses %s', (_name, over, reason) => {
    const decision = ask(over);
    expect(decision.follow).toBe(false);
    expect(decision.follow === false && decision.reason).toMatch(reason);
  });

  it(`follows ${MAX_REDIRECTS} hops and refuses the one after`, () => {
    const chain = (n: number) => Array.from({ length: n }, (_, i) => `https://api.fleet.test/hop/${i}`);
    expect(ask({ visited: chain(MAX_REDIRECTS), location: '/next' }).follow).toBe(true);
    expect(ask({ visited: chain(MAX_REDIRECTS + 1), location: '/next' })).toMatchObject({ follow: false, reason: `more than ${MAX_REDIRECTS} redirects in a row` });
  });
});
