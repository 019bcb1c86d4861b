// Colour in a real terminal: "Error:" is painted red where a person reads it, and not one escape sequence is
// written when colour is turned off (NO_COLOR, --no-color, TERM=dumb, CI=true); FORCE_COLOR paints a pipe.
import { stripVTControlCharacters } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, startHarness, type SandboxHarness } from '../harness.js';
import { startPty, type CellStyle } from '../../support/pty.js';

const RED = 1;
const UNKNOWN_DEVICE = '00000000-0000-4000-8000-000000000000';
let h: SandboxHarness;

beforeAll(async () => {
  h = await startHarness({ devices: 20 });
}, 60_000);

afterAll(async () => {
  await h?.close();
});

const colours = (cells: CellStyle[]) => [...new Set(cells.map((cell) => cell.fg))];

describe('colour in a terminal', { timeout: 60_000 }, () => {
  for (const cols of [80, 160]) {
    it(`a usage error shows "Error:" in red and its message in the terminal's own colour (${cols} columns)`, async () => {
      const session = startPty(['fleets', 'get', 'not-a-uuid'], { cols });
      expect(await session.waitForExit()).toEqual({ code: 2, signal: undefined });
      expect(session.screen()[0]).toMatch(/^Error: fleet id must be a UUID/);
      const label = session.styleOf('Error:');
      expect(colours(label)).toEqual([RED]);
      expect(label.every((cell) => cell.bold)).toBe(true);
      expect(colours(session.styleOf('fleet id must be a UUID'))).toEqual(['default']);
    });
  }

  it('an API error (404) shows "Error:" in red too', async () => {
    const session = startPty(['devices', 'get', UNKNOWN_DEVICE], { sandbox: h, cols: 160 });
    expect((await session.waitForExit()).code).toBe(5);
    expect(session.screen()[0]).toBe(`Error: Device ${UNKNOWN_DEVICE} was not found. (resource.not_found, HTTP 404)`);
    expect(colours(session.styleOf('Error:'))).toEqual([RED]);
  });

  const off: [string, string[], Record<string, string>][] = [
    ['NO_COLOR=1', [], { NO_COLOR: '1' }],
    ['--no-color', ['--no-color'], {}],
    ['TERM=dumb', [], { TERM: 'dumb' }],
    ['CI=true', [], { CI: 'true' }],
  ];
  for (const [name, flags, env] of off) {
    it(`with ${name} not one escape sequence reaches the terminal, for a usage error or an API error`, async () => {
      const usage = startPty([...flags, 'fleets', 'get', 'not-a-uuid'], { env });
      expect((await usage.waitForExit()).code).toBe(2);
      expect(usage.screen()[0]).toMatch(/^Error: fleet id must be a UUID/);
      expect(colours(usage.styleOf('Error:'))).toEqual(['default']);
      expect(usage.raw()).not.toContain('\x1b');

      const api = startPty([...flags, 'devices', 'get', UNKNOWN_DEVICE], { env, sandbox: h });
      expect((await api.waitForExit()).code).toBe(5);
      expect(api.screen()[0]).toMatch(/^Error: Device .* was not found/);
      expect(api.raw()).not.toContain('\x1b');
    });
  }

  it('without FORCE_COLOR a piped stderr has no colour; FORCE_COLOR=1 paints it, even in CI', async () => {
    const plain = await runCli(['fleets', 'get', 'not-a-uuid'], { env: { NO_COLOR: undefined }, process: true });
    expect(plain.code).toBe(2);
    expect(plain.stderr).not.toContain('\x1b');

    const forced = await runCli(['fleets', 'get', 'not-a-uuid'], { env: { NO_COLOR: undefined, FORCE_COLOR: '1' }, process: true });
    expect(forced.code).toBe(2);
    expect(forced.stdout).toBe('');
    expect(forced.stderr).toMatch(/^\x1b\[31m(\x1b\[1m)?Error:/);
    expect(stripVTControlCharacters(forced.stderr)).toMatch(/^Error: fleet id must be a UUID .*"not-a-uuid"\n$/);
  });
});
