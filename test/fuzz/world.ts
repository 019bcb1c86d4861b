// The fixtures of the fuzz suite: hostile files in a temporary folder, and real ids of the in-process sandbox
// (so that generated commands reach it, not only its argument checks).
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { main } from '../../src/main.js';
import { IOStreams } from '../../src/io/streams.js';
import type { RunningSandbox } from '../../src/sandbox/index.js';
import { MAX_INPUT_BYTES, MAX_JSON_DEPTH } from '../../src/io/read-input.js';
import type { World } from './values.js';

export async function prepareWorld(dir: string, sandbox: RunningSandbox, env: NodeJS.ProcessEnv): Promise<World> {
  mkdirSync(dir, { recursive: true });
  const ask = (args: string[]) => cliJson(args, { ...env, FLEETCTL_CONFIG_DIR: path.join(dir, 'config') });
  const fleets = await ask(['fleets', 'list', '--limit', '2', '-o', 'json']);
  const vehicles = await ask(['vehicles', 'list', '--limit', '2', '-o', 'json']);
  const drivers = await ask(['drivers', 'list', '--limit', '2', '-o', 'json']);
  const devices = await ask(['devices', 'list', '--limit', '2', '-o', 'json']);
  const events = await ask(['events', 'search', '--fleet-id', String(fleets[0]!.id), '--since', '30d', '--limit', '2', '-o', 'json']);
  const media = await firstMedia(ask, await ask(['devices', 'list', '--limit', '20', '-o', 'json']));
  const uuids = [...sandbox.organizations.map((o) => o.id), ...[fleets, vehicles, drivers, devices].flatMap((list) => list.map((r) => String(r.id)))];
  const root = sandbox.organizations.find((o) => o.parent_id === null)!;
  const file = (name: string, content: string | Buffer) => {
    const target = path.join(dir, name);
    writeFileSync(target, content);
    return target;
  };
  const fifo = path.join(dir, 'fifo');
  execFileSync('mkfifo', [fifo]);
  const directory = path.join(dir, 'a-directory');
  mkdirSync(directory);
  return {
    files: {
      ids: file('ids.txt', 'HW-000001\n# a comment\nHW-000004  # trailing\n\nHW-000009\n'),
      manyIds: file('many-ids.txt', Array.from({ length: 300_000 }, (_, i) => `HW-${i}`).join('\n')),
      idsWithNul: file('ids-nul.txt', 'HW-000001\n\u0000\nHW-000002\n'),
      binary: file('binary.bin', pseudoRandomBytes(4096)),
      huge: file('huge.txt', Buffer.alloc(MAX_INPUT_BYTES + 1, 'x')),
      oneLongLine: file('one-line.txt', 'x'.repeat(5_000_000)),
      deepJson: file('deep.json', `${'['.repeat(200_000)}${']'.repeat(200_000)}`),
      justTooDeepJson: file('too-deep.json', `${'['.repeat(MAX_JSON_DEPTH + 1)}${']'.repeat(MAX_JSON_DEPTH + 1)}`),
      driver: file('driver.json', JSON.stringify({ organization_id: root.id, fleet_id: fleets[0]?.id, first_name: 'Fuzz', last_name: 'Case' })),
      desired: file('desired.json', JSON.stringify({ is_enabled: false, topics: [{ type: 'alarms', delivery: { url: 'https://hooks.example.com/x' } }] })),
      prototypeKeys: file('proto.json', '{"__proto__": {"polluted": true}, "constructor": {"prototype": {}}, "toString": 1}'),
      empty: file('empty.txt', ''),
      directory,
      fifo,
    },
    uuids,
    hardwareIds: ['HW-000001', 'HW-000004', 'HW-000006', 'HW-000008', 'HW-000009', ...devices.map((d) => String(d.hardware_id))],
    eventIds: nonEmpty(events.map((e) => String(e.event_id)), 'events'),
    mediaIds: media.map((m) => String(m.id)),
  };
}

/** Media of the first devices that have some (not every device has media). */
async function firstMedia(ask: (args: string[]) => Promise<Record<string, unknown>[]>, devices: Record<string, unknown>[]): Promise<Record<string, unknown>[]> {
  for (const device of devices) {
    const media = await ask(['devices', 'media', String(device.hardware_id), '--limit', '2', '-o', 'json']);
    if (media.length > 0) return media;
  }
  throw new Error('no device of the fuzz sandbox has media');
}

async function cliJson(args: string[], env: NodeJS.ProcessEnv): Promise<Record<string, unknown>[]> {
  const io = IOStreams.forTest({ env: { CI: 'true' } });
  const code = await main(['node', 'fleetctl', ...args], { io, env, signal: new AbortController().signal });
  if (code !== 0) throw new Error(`fleetctl ${args.join(' ')} failed (${code}): ${io.stderr()}`);
  return JSON.parse(io.stdout()) as Record<string, unknown>[];
}

/** The same 4 KB of "binary" every run: the suite stays reproducible from its seed. */
function pseudoRandomBytes(size: number): Buffer {
  const bytes = Buffer.alloc(size);
  let state = 0x2545f491;
  for (let i = 0; i < size; i++) {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    bytes[i] = state & 0xff;
  }
  return bytes;
}

function nonEmpty(values: string[], what: string): string[] {
  if (values.length === 0) throw new Error(`the fuzz sandbox has no ${what}`);
  return values;
}
