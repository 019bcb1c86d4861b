// The operator's terminal, second pass (issue 24), seen where a person sees it: the built CLI in a pseudo-terminal
// against a sandbox, at 80 columns (and 160 where width matters). Needs `npm run build` first.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type SandboxHarness } from '../harness.js';
import { startPty } from '../../support/pty.js';

let h: SandboxHarness;

beforeAll(async () => {
  h = await startHarness({ devices: 24 });
}, 60_000);

afterAll(async () => {
  await h?.close();
});

const executed = async (): Promise<unknown[]> => (await (await fetch(`${h.sandbox.baseUrl}/_sandbox/commands`)).json()) as unknown[];
const NO_FLEET = '0bad0bad-0bad-4bad-8bad-0bad0bad0bad';

describe('a selection that matches nothing', { timeout: 60_000 }, () => {
  it.each(['reboot', 'wake-up'])('devices %s --fleet-id <no fleet> --yes: exit 5, naming the selection and fleets list; nothing sent', async (verb) => {
    const before = await executed();
    const session = startPty(['devices', verb, '--fleet-id', NO_FLEET, '--yes'], { sandbox: h, cols: 80, rows: 24 });
    expect((await session.waitForExit()).code).toBe(5);
    const screen = session.screen().join('\n');
    expect(screen).toContain(`Error: --fleet-id ${NO_FLEET} matched no device`);
    expect(screen).toContain('fleetctl fleets list');
    expect(screen).toContain('--allow-empty');
    expect(await executed()).toEqual(before);
  });

  it('--allow-empty: the same empty selection exits 0, saying nothing was sent', async () => {
    const allowed = startPty(['devices', 'reboot', '--fleet-id', NO_FLEET, '--yes', '--allow-empty'], { sandbox: h, cols: 80, rows: 24 });
    expect((await allowed.waitForExit()).code).toBe(0);
    expect(allowed.screen().join('\n')).toContain('No devices matched: nothing to send.');
  });
});
