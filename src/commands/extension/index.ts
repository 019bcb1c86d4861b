// extension list: the extensions on PATH. An executable `fleetctl-NAME` in a folder of PATH runs as
// `fleetctl NAME ARGS` (src/extensions/), unless a command of fleetctl or an alias has that name.
import { Command } from 'commander';
import type { Deps } from '../../factory.js';
import { storedAliases } from '../../config/aliases.js';
import { listedExtensions } from '../../extensions/path-lookup.js';
import { describeVerb } from '../shared/help.js';

type ExtensionDeps = Pick<Deps, 'config' | 'output' | 'env'>;

export function newExtensionCommand(deps: ExtensionDeps, builtIns: ReadonlySet<string>): Command {
  const group = new Command('extension').description('Your own commands: an executable fleetctl-NAME on PATH runs as fleetctl NAME ARGS');

  const list = new Command('list').description('List the extensions on PATH, each with the executable that runs, and whether a command or an alias shadows it');
  describeVerb(list, {
    output: 'records',
    notes:
      'The first executable of a name in the order of PATH runs; a command of fleetctl or an alias of the same name runs instead (shadowed_by says which). ' +
      'An extension gets its arguments as typed, the terminal, the signals fleetctl receives, and in its environment FLEETCTL_PROFILE, FLEETCTL_BASE_URL, FLEETCTL_AUTH_URL, ' +
      'FLEETCTL_OUTPUT, FLEETCTL_NO_COLOR, FLEETCTL_NO_INPUT, FLEETCTL_EXTENSION and FLEETCTL_EXECUTABLE (this fleetctl: "$FLEETCTL_EXECUTABLE" auth token --scope devices_read prints a token, asked of this fleetctl at FLEETCTL_TOKEN_BROKER); ' +
      'never the client secret. fleetctl ends with its exit status.',
    examples: [
      { comment: 'every extension on PATH', command: 'fleetctl extension list' },
      { comment: 'as JSON: name, path and shadowed_by (command, alias or null)', command: 'fleetctl extension list -o json' },
    ],
  });
  list.action(async () => {
    const aliases = storedAliases((await deps.config()).read());
    const rows = listedExtensions(deps.env, { builtIns, aliases });
    await deps.output().list(rows, ['name', 'path', 'shadowed_by']);
  });

  return group.addCommand(list);
}
