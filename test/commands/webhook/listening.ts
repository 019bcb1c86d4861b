// `webhook listen` run for one test on a free port (stopped when the test ends), with test streams to assert on.
import { onTestFinished } from 'vitest';
import { webhookListenRun, type WebhookListenOptions } from '../../../src/commands/webhook/listen.js';
import type { Deps } from '../../../src/factory.js';
import { fakeDeps } from '../fake-deps.js';

/** Starts listen on a free port; resolves with its URL once the ready line is on stderr. */
export async function listening(opts: Partial<WebhookListenOptions>, tty: boolean, format?: 'json' | 'ndjson' | 'csv') {
  const f = fakeDeps({ tty, format });
  const controller = new AbortController();
  const deps = { ...f.deps, signal: controller.signal } as Deps;
  const done = webhookListenRun(deps, { host: '127.0.0.1', port: 0, key: 'secret', ...opts });
  onTestFinished(() => controller.abort());
  let url: string | undefined;
  for (let i = 0; i < 200 && !url; i++) {
    url = /Listening on (\S+)/.exec(f.io.stderr())?.[1];
    if (!url) await new Promise((r) => setTimeout(r, 10));
  }
  if (!url) throw new Error(`not ready: ${f.io.stderr()}`);
  return { f, url, done, stop: () => controller.abort() };
}
