// Every fleetctl command in a fenced block of the README is exercised: its section is run as written by a README
// test of its own (quick start, recipes, runbook, CI recipe, acting by condition), or its fleetctl lines run here against a sandbox
// (or the second service double, for a line written for a service shaped otherwise), in bash with fleetctl on
// PATH, each line exiting 0 (a server: serving, then stopped with Ctrl-C); or it is excused below with the reason. A new fenced command fails this test until
// it is one of the three. Needs `npm run build` first.
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, startHarness, type SandboxHarness } from './harness.js';
import { fleetctlOnPath, readmeExtension, runExample } from './examples.js';
import { useSecondHarness, type SecondHarness } from '../support/second-service/harness.js';

interface Section {
  heading: string;
  /** The fleetctl command lines of its fenced blocks, continuation lines joined, comments kept. */
  commands: string[];
}

/** The sections of the README whose fenced blocks run fleetctl, by their heading (without the #s). */
function readmeSections(): Section[] {
  const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const sections: Section[] = [];
  for (const part of readme.split(/^(?=#{2,4} )/m)) {
    const heading = /^#{2,4} (.*)$/m.exec(part)?.[1];
    if (!heading) continue;
    const commands = [...part.matchAll(/```[a-z]*\n([\s\S]*?)```/g)].flatMap((block) => commandLines(block[1]!));
    if (commands.length > 0) sections.push({ heading, commands });
  }
  return sections;
}

/** The lines that run fleetctl (not comments), each with the lines it continues onto (a trailing backslash). */
function commandLines(block: string): string[] {
  const out: string[] = [];
  const lines = block.split('\n');
  for (let i = 0; i < lines.length; i++) {
    // fleetctl as the command: at the start, after a pipe, ;, && or ||, or in $(...); not as a word of another
    if (!/(^|[|;&]\s*|\$\()fleetctl\b/.test(lines[i]!.trim()) || /^\s*#/.test(lines[i]!)) continue;
    let command = lines[i]!;
    while (/\\$/.test(command) && i + 1 < lines.length) command += `\n${lines[++i]}`;
    out.push(command.trim());
  }
  return out;
}

/** Sections a README test of their own runs as written: that test names the heading it reads. */
const RUN_BY: Record<string, string> = {
  'Quick start (offline, against the embedded sandbox)': 'readme-quickstart.test.ts',
  Recipes: 'readme-recipes.test.ts',
  'Rebooting a fleet safely': 'readme-runbook.test.ts',
  'Readiness, and a CI recipe': 'readme-ci-recipe.test.ts',
  'Acting on devices by condition': 'readme-where.test.ts',
  'Guided mode': 'guided-pty.test.ts',
};

/** Sections whose lines are not run, with the reason. */
const EXCUSED: Record<string, string> = {
  Webhooks: 'a sandbox and a receiver that run until stopped, on the fixed ports 4010 and 4011, one feeding the other across three terminals',
};

/** Sections run here: what the lines presume, prepared first in the same shell (not shown in the README). */
interface Here {
  given?: string;
  /** Against the second service double: the line is written for a service whose drivers have given_name. */
  second?: true;
  /** Rewrites of the line for the test machine, each saying why. */
  rewrite?: (command: string) => string;
  /** Each line starts a server that runs until stopped: it must start (say where it serves), then it gets Ctrl-C. */
  servers?: true;
}

/** The README's example extension saved as ~/.local/bin/fleetctl-fleet-devices, that folder put first on PATH. */
function savedExampleExtension(): string {
  const file = '~/.local/bin/fleetctl-fleet-devices';
  return `mkdir -p ~/.local/bin && cat > ${file} <<'SCRIPT'\n${readmeExtension()}SCRIPT\nchmod +x ${file} && PATH=~/.local/bin:$PATH`;
}

const FIRST_FLEET = 'FLEET=$(fleetctl fleets list --limit 1 --jq .id)';

/**
 * A watch runs until stopped: --exit-on-breach ends it at its first breach, which the sandbox's world has (stale
 * devices, HW-000006 never reported): exit 13, expected.
 */
const endsAtBreach = (command: string) => (/--watch /.test(command) ? `{ ${command.replace(/--watch (\S+)/, '--watch $1 --exit-on-breach')}; test $? = 13; }` : command);

const HERE: Record<string, Here> = {
  Install: {},
  Commands: { second: true },
  'Rebooting and waking devices, one or thousands': { given: `${FIRST_FLEET}; CI_PIPELINE_ID=ci-42` },
  'Assigning many devices at once: `devices assign|unassign --from-file`': {
    // the file of the installation day: two devices, each back onto the vehicle it is on
    given: "fleetctl devices list --limit 2 --columns hardware_id,vehicle_id -o csv | sed '1s/.*/device,vehicle_id/' > installs.csv",
  },
  'The audit ledger: `fleetctl history`': { given: 'fleetctl devices reboot HW-000001 --yes --idempotency-key readme-ledger' },
  Aliases: {},
  // the README's script, saved where the section says, first on PATH; a pipe fails when the extension does
  Extensions: { given: `set -o pipefail\n${savedExampleExtension()}` },
  Paging: {
    given: FIRST_FLEET,
    // a follow runs until stopped: --until ends it once it has caught up with the window
    rewrite: (command) => command.replace('--follow', '--follow --until 1s'),
  },
  'Fleet health: `fleetctl status`': {
    given: 'alert() { echo "alert: $*" >&2; }',
    // the report goes to the example's own folder, not the machine's /var/tmp; no alert service here (port 9 refuses)
    rewrite: (command) => endsAtBreach(command.replace('/var/tmp/', './').replace('https://alerts.example.com/fleet', 'http://127.0.0.1:9/')),
  },
  'Running unattended': {
    given: `${FIRST_FLEET}; printf '#!/bin/sh\\ncat > breach.json\\n' > page-oncall && chmod +x page-oncall`,
    // the feed ends once it has caught up (--until); the watch at its first breach
    rewrite: (command) => endsAtBreach(command.replace('--follow', '--follow --until 1s')),
  },
  'Shell completion': { given: 'mkdir -p ~/.local/share/bash-completion/completions' },
  Manual: {},
  Profiles: {
    // the organization elided in the README (6b1f0c3e-....) is the sandbox's own; secrets come from the environment
    rewrite: (command) => command.replace('6b1f0c3e-....', '"$FLEETCTL_ORGANIZATION_ID"'),
  },
  'In CI': {},
  'The sandbox': {
    servers: true,
    // the scenario the README names, from the repository; a rule file of one fault
    given: `cp -r ${JSON.stringify(path.join(ROOT, 'examples'))} . && printf -- '- match: {operation_id: rebootDevice}\\n  respond: {status: 503}\\n  times: 1\\n' > faults.yaml`,
    // a free port, not 4010: other sandboxes may be running on this machine
    rewrite: (command) => (/--port /.test(command) ? command : command.replace(/^fleetctl sandbox/, 'fleetctl sandbox --port 0')),
  },
  'Targeted faults: fail one call on purpose': {},
  'The request journal: what your client actually sent': {},
};

const sections = readmeSections();
let h: SandboxHarness;
let second: SecondHarness;
let shimDir: string;

beforeAll(async () => {
  h = await startHarness({ devices: 12 });
  shimDir = fleetctlOnPath();
}, 60_000);

afterAll(async () => {
  await h?.close();
  if (shimDir) rmSync(shimDir, { recursive: true, force: true });
});

useSecondHarness((harness) => (second = harness));

describe('README: every fenced fleetctl command', () => {
  it('is in a section run by a README test, run here, or excused with a reason', () => {
    const unaccounted = sections.filter((s) => !(s.heading in RUN_BY) && !(s.heading in HERE) && !(s.heading in EXCUSED));
    expect(unaccounted.map((s) => `${s.heading}: ${s.commands[0]}`)).toEqual([]);
    // and nothing listed here is stale
    const headings = sections.map((s) => s.heading);
    expect([...Object.keys(RUN_BY), ...Object.keys(HERE), ...Object.keys(EXCUSED)].filter((h) => !headings.includes(h))).toEqual([]);
  });

  it.each(Object.entries(RUN_BY))('"%s" is run as written by %s', (heading, file) => {
    const source = readFileSync(path.join(ROOT, 'test/e2e', file), 'utf8');
    expect(source).toContain(heading.replace(/ \(.*$/, ''));
  });

  it.each(Object.entries(HERE))('"%s": its lines, one after another in one shell, each exit 0', { timeout: 180_000 }, async (heading, here) => {
    const section = sections.find((s) => s.heading === heading)!;
    const env = here.second ? { ...second.svc.envFor(second.svc.clients.admin, second.configDir) } : h.envFor();
    const given = here.second ? `FLEET=${second.svc.state.fleets[0]!.id}` : here.given;
    // as a reader types them: one shell, each line after the one before (a profile made, then used); the first
    // line that fails ends the script, and says which it was
    const lines = section.commands.map((written) => (here.rewrite ? here.rewrite(written) : written));
    if (here.servers) {
      for (const line of lines) {
        const started = await runExample({ command: line, given, runsUntilInterrupted: true }, { env, shimDir });
        expect(`${started.stdout}${started.stderr}`, `${line}\nstdout:\n${started.stdout}\nstderr:\n${started.stderr}`).toMatch(/127\.0\.0\.1:\d+/);
        expect([0, 130, null], `${line}: exit ${started.code}\n${started.stderr}`).toContain(started.code);
      }
      return;
    }
    const command = lines.map((line) => `${line} || { echo "FAILED: $?: ${line.replace(/["\\$`]/g, '\\$&').split('\n')[0]}" >&2; exit 1; }`).join('\n');
    const outcome = await runExample({ command, given }, { env, shimDir });
    expect(outcome.code, `${lines.join('\n')}\nstdout:\n${outcome.stdout}\nstderr:\n${outcome.stderr}`).toBe(0);
  });
});
