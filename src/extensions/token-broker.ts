// The token broker of an extension run: the extension never gets the client secret, so the fleetctl that runs it
// hands out tokens instead, over a Unix domain socket in a fresh directory only its user can enter (0700), removed
// when the extension ends. One JSON line asks, {"scopes":["devices_read"]}; one JSON line answers,
// {"access_token":"..."} or {"error":"...","hint":"...","exit_code":N}. Tokens come from the runner's own API
// client, checked and cached as `auth token` gets them; the secret never goes over the socket.
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { AuthError, FleetctlError, RelayedError, UsageError } from '../errors.js';

export interface TokenBroker {
  /** The socket's path: the value of FLEETCTL_TOKEN_BROKER. */
  socket: string;
  /** Stops answering and removes the directory. */
  close(): Promise<void>;
}

type Answer = { access_token: string } | { error: string; hint?: string; exit_code: number };

/** A request or an answer is a few hundred bytes: a line longer than this is no request. */
const MAX_LINE = 64 * 1024;
/** A caller that connects and says nothing is dropped after this long. */
const IDLE_MS = 60_000;

/** Listens on a socket in a new private directory; `issue` turns the scopes asked (as typed) into a token. */
export async function startTokenBroker(issue: (asked: string[]) => Promise<string>): Promise<TokenBroker> {
  const directory = await mkdtemp(path.join(os.tmpdir(), 'fleetctl-broker-'));
  const socket = path.join(directory, 'tokens.sock');
  const open = new Set<net.Socket>();
  const server = net.createServer((connection) => {
    open.add(connection);
    connection.on('close', () => open.delete(connection));
    void answer(connection, issue);
  });
  try {
    // mkdtemp makes it 0700 already; said here, since the socket's safety rests on it
    await chmod(directory, 0o700);
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(socket, resolve);
    });
  } catch (error) {
    await rm(directory, { recursive: true, force: true });
    throw error;
  }
  return {
    socket,
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      // a caller the extension left behind does not hold the directory
      for (const connection of open) connection.destroy();
      await closed;
      await rm(directory, { recursive: true, force: true });
    },
  };
}

async function answer(connection: net.Socket, issue: (asked: string[]) => Promise<string>): Promise<void> {
  connection.setTimeout(IDLE_MS, () => connection.destroy());
  connection.on('error', () => undefined);
  let reply: Answer;
  try {
    const asked = scopesAsked(await readLine(connection));
    reply = { access_token: await issue(asked) };
  } catch (error) {
    reply = failure(error);
  }
  if (!connection.destroyed) connection.end(`${JSON.stringify(reply)}\n`);
}

function scopesAsked(line: string): string[] {
  let request: unknown;
  try {
    request = JSON.parse(line);
  } catch {
    request = undefined;
  }
  const scopes = (request as { scopes?: unknown } | undefined)?.scopes;
  if (!Array.isArray(scopes) || scopes.length === 0 || !scopes.every((scope) => typeof scope === 'string')) {
    throw new UsageError('the token broker was asked something other than {"scopes":[...]} with at least one scope');
  }
  return scopes as string[];
}

/** What the extension's fleetctl says and exits with: the runner's failure as the runner would have said it. */
function failure(error: unknown): Answer {
  if (error instanceof FleetctlError) return { error: error.message, ...(error.hint ? { hint: error.hint } : {}), exit_code: error.exitCode };
  return { error: `unexpected failure getting a token: ${error instanceof Error ? error.message : String(error)}`, exit_code: 1 };
}

/** Asks the broker at `socket` for a token carrying the scopes (as typed); its refusal is thrown with its exit code. */
export async function tokenFromBroker(socket: string, asked: string[]): Promise<string> {
  let line: string;
  try {
    line = await exchange(socket, `${JSON.stringify({ scopes: asked })}\n`);
  } catch (error) {
    const why = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new AuthError(
      `the token broker at ${socket} did not answer (${why})`,
      'FLEETCTL_TOKEN_BROKER is set by fleetctl for the extension it runs, and holds while that extension runs; outside one, unset it',
    );
  }
  let reply: Partial<{ access_token: unknown; error: unknown; hint: unknown; exit_code: unknown }> | undefined;
  try {
    reply = JSON.parse(line) as typeof reply;
  } catch {
    reply = undefined;
  }
  if (typeof reply?.access_token === 'string' && reply.access_token) return reply.access_token;
  if (typeof reply?.error === 'string') throw new RelayedError(reply.error, reply.exit_code, typeof reply.hint === 'string' ? reply.hint : undefined);
  throw new AuthError(`the token broker at ${socket} answered something other than a token or an error`);
}

async function exchange(socket: string, request: string): Promise<string> {
  const connection = net.createConnection(socket);
  try {
    await new Promise<void>((resolve, reject) => {
      connection.once('connect', resolve);
      connection.once('error', reject);
    });
    connection.write(request);
    return await readLine(connection);
  } finally {
    connection.destroy();
  }
}

/** The first line the peer sends (without its newline); an error when it ends or fails before one. */
function readLine(connection: net.Socket): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    const done = (settle: () => void) => {
      connection.off('data', onData);
      connection.off('end', onEnd);
      connection.off('error', reject);
      settle();
    };
    const onData = (chunk: string) => {
      text += chunk;
      const end = text.indexOf('\n');
      if (end >= 0) done(() => resolve(text.slice(0, end)));
      else if (text.length > MAX_LINE) done(() => reject(new UsageError(`a line of more than ${MAX_LINE} bytes reached the token broker`)));
    };
    const onEnd = () => done(() => reject(Object.assign(new Error('closed before a whole line'), { code: 'ECONNRESET' })));
    connection.setEncoding('utf8');
    connection.on('data', onData);
    connection.on('end', onEnd);
    connection.on('error', reject);
  });
}
