// The token broker of an extension run: tokens for the scopes asked, from the issuer it was given, over a socket in
// a private directory gone when it closes; an unknown scope, a request of the wrong shape and the issuer's failure
// come back with their message and exit code; the secret is never among what it can send.
import { existsSync, statSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startTokenBroker, tokenFromBroker, type TokenBroker } from '../../src/extensions/token-broker.js';
import { tokenForScopes } from '../../src/auth/token-for-scopes.js';
import { AuthError, RelayedError } from '../../src/errors.js';
import { withoutSecret } from '../../src/extensions/launch.js';

let broker: TokenBroker | undefined;
afterEach(async () => broker?.close());

/** A broker whose issuer records the scope lists asked, and answers with them, or fails with `failure`. */
async function brokerAnswering(failure?: Error): Promise<{ broker: TokenBroker; asked: string[] }> {
  const asked: string[] = [];
  const issuer = {
    accessToken: async (scope: string) => {
      asked.push(scope);
      if (failure) throw failure;
      return `token for ${scope}`;
    },
  };
  broker = await startTokenBroker((scopes) => tokenForScopes(issuer, scopes));
  return { broker, asked };
}

/** What the broker answers to a raw line. */
async function rawAnswer(socket: string, line: string): Promise<unknown> {
  const connection = net.createConnection(socket);
  connection.end(line);
  let text = '';
  for await (const chunk of connection) text += String(chunk);
  return JSON.parse(text);
}

describe('token broker', () => {
  it('hands out one token for the scopes asked, as auth token names them, from a socket only its user can reach', async () => {
    const { broker, asked } = await brokerAnswering();
    expect(statSync(path.dirname(broker.socket)).mode & 0o777).toBe(0o700);
    expect(await tokenFromBroker(broker.socket, ['fleets_read', 'devices_read', 'fleets_read'])).toBe('token for thirdparty.api.devices_read thirdparty.api.fleets_read');
    expect(asked).toEqual(['thirdparty.api.devices_read thirdparty.api.fleets_read']);
  });

  it('refuses an unknown scope (exit 2) before asking the issuer, and a request of another shape', async () => {
    const { broker, asked } = await brokerAnswering();
    const refusal = await tokenFromBroker(broker.socket, ['devices_rule']).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(RelayedError);
    expect(refusal).toMatchObject({ exitCode: 2, message: expect.stringContaining('unknown scope "devices_rule"') as unknown });
    expect(asked).toEqual([]);
    expect(await rawAnswer(broker.socket, 'not json\n')).toMatchObject({ exit_code: 2 });
    expect(await rawAnswer(broker.socket, '{"scopes":[]}\n')).toMatchObject({ exit_code: 2 });
  });

  it("relays the issuer's failure with its hint and exit code", async () => {
    const { broker } = await brokerAnswering(new AuthError('the token endpoint refused the client', 'check the client id'));
    expect(await rawAnswer(broker.socket, '{"scopes":["devices_read"]}\n')).toEqual({ error: 'the token endpoint refused the client', hint: 'check the client id', exit_code: 3 });
    await expect(tokenFromBroker(broker.socket, ['devices_read'])).rejects.toMatchObject({ exitCode: 3, hint: 'check the client id' });
  });

  it('removes its directory when closed; a broker that is gone is an auth failure naming the variable', async () => {
    const { broker: closing } = await brokerAnswering();
    await closing.close();
    broker = undefined;
    expect(existsSync(path.dirname(closing.socket))).toBe(false);
    const gone = await tokenFromBroker(closing.socket, ['devices_read']).catch((error: unknown) => error);
    expect(gone).toBeInstanceOf(AuthError);
    expect((gone as AuthError).hint).toContain('FLEETCTL_TOKEN_BROKER');
  });
});

describe('RelayedError', () => {
  it('keeps the exit code of a failure; one that is none (0, unknown, not a number) is an internal failure', () => {
    expect(new RelayedError('x', 9).exitCode).toBe(9);
    for (const code of [0, 77, '3', undefined]) expect(new RelayedError('x', code).exitCode).toBe(1);
  });
});

describe('withoutSecret', () => {
  it('drops the secret and its command, keeps the rest, and names the broker; without one, an inherited broker stays', () => {
    const env = { HOME: '/h', FLEETCTL_CLIENT_ID: 'c', FLEETCTL_CLIENT_SECRET: 's3cret', FLEETCTL_CLIENT_SECRET_COMMAND: 'op read x' };
    expect(withoutSecret(env, { socket: '/tmp/b/tokens.sock' })).toEqual({ HOME: '/h', FLEETCTL_CLIENT_ID: 'c', FLEETCTL_TOKEN_BROKER: '/tmp/b/tokens.sock' });
    expect(withoutSecret({ ...env, FLEETCTL_TOKEN_BROKER: '/outer.sock' }, undefined)).toEqual({ HOME: '/h', FLEETCTL_CLIENT_ID: 'c', FLEETCTL_TOKEN_BROKER: '/outer.sock' });
  });
});
