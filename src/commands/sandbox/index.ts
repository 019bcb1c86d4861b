// `fleetctl sandbox`: the local emulator (foreground server), and `sandbox reset` for the embedded state.
import { Command } from 'commander';
import { rm } from 'node:fs/promises';
import type { Deps } from '../../factory.js';
import { describeVerb } from '../shared/help.js';
import { completeValues } from '../../completion/values.js';
import { EMBEDDED_NOTICE_AFTER_MS, EMBEDDED_STATE_WAIT_MS, embeddedStatePath } from './embedded.js';
import { addSandboxStartOptions, sandboxOptionsFrom, sandboxStartRun, type SandboxStartFlags } from './start.js';
import { newSandboxEmitCommand } from './emit.js';
import { newSandboxFaultCommand } from './fault.js';
import { newSandboxRequestsCommand } from './requests.js';
import { requireRegularFileOrMissing } from '../../io/read-input.js';
import { CONTROL_TOKEN_VARIABLE } from './control-client.js';

export function newSandboxCommand(deps: Deps): Command {
  const sandbox = new Command('sandbox').description('Run a faithful, stateful local emulator of the whole Fleet API (token endpoint included)');
  addSandboxStartOptions(sandbox);
  describeVerb(sandbox, {
    output: 'text',
    notes: 'Seeded clients: sandbox-admin (all scopes, root organization), sandbox-reader (read scopes),\nsandbox-child (all scopes, one child organization), sandbox-reboot-only (devices_read, device_commands_reboot).',
    examples: [
      { comment: 'start on a free port and print the endpoints and credentials as JSON', command: 'fleetctl sandbox --port 0 --json', runsUntilInterrupted: true },
      { comment: 'a flaky, rate-limited service to test retries', command: 'fleetctl sandbox --port 0 --fault-rate 0.2 --rate-limit 50', runsUntilInterrupted: true },
    ],
  });
  sandbox.action(async (flags: SandboxStartFlags) => {
    const options = sandboxOptionsFrom({ ...flags, controlToken: flags.controlToken ?? (deps.env[CONTROL_TOKEN_VARIABLE] || undefined) });
    await sandboxStartRun(deps, options, Boolean(flags.json || deps.globals().json));
  });

  const reset = new Command('reset').description('Start the state of `fleetctl --sandbox` afresh (or of --state FILE)').option('--state <file>', 'a state file of `fleetctl sandbox --state FILE` instead');
  completeValues(reset, { '--state': 'file' });
  describeVerb(reset, { output: 'nothing', examples: [{ comment: 'forget every change made with --sandbox', command: 'fleetctl sandbox reset' }] });
  reset.action(async (flags: { state?: string }) => {
    // `sandbox` has a --state of its own, and commander gives a parent's option to the parent wherever it stands
    const state = flags.state ?? sandbox.opts<{ state?: string }>().state;
    const file = requireRegularFileOrMissing(state ?? embeddedStatePath(deps.configDir()), '--state');
    // not under a sandbox still using it: that one would save its world again when it stops
    const { lockStateFile } = await import('../../sandbox/state-file.js');
    const { changeLogOf } = await import('../../sandbox/store/state-changes.js');
    const lock = await lockStateFile(file, { waitMs: state === undefined ? EMBEDDED_STATE_WAIT_MS : 0, notice: (line) => deps.io.info(line), noticeAfterMs: EMBEDDED_NOTICE_AFTER_MS, purpose: 'fleetctl sandbox reset' });
    try {
      // the log first: without its state file it is ignored, but a state file without its log has lost changes
      await rm(changeLogOf(file), { force: true });
      await rm(file, { force: true });
    } finally {
      lock.release();
    }
    deps.io.info(`Sandbox state reset (${file}).`);
  });

  // `--control-token` belongs to `sandbox`, so commander hands it to this command wherever it stands: the control
  // verbs read it from here (or from the environment)
  const control = { ...deps, controlToken: () => sandbox.opts<{ controlToken?: string }>().controlToken ?? (deps.env[CONTROL_TOKEN_VARIABLE] || undefined) };
  return sandbox.addCommand(reset).addCommand(newSandboxEmitCommand(control)).addCommand(newSandboxFaultCommand(control)).addCommand(newSandboxRequestsCommand(control));
}
