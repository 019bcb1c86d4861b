// selection save|list|show|delete: named expressions of the selection language, per profile, in the config store.
// A saved selection is evaluated where it is used (@NAME in --where or as a bulk verb's target), so it is a
// dynamic group: a device that went stale after it was saved is in it the next time.
import { Command } from 'commander';
import type { Deps } from '../../factory.js';
import { NotFoundError } from '../../errors.js';
import { savedSelections, selectedProfile } from '../../config/settings.js';
import { deleteSelection, saveSelection } from '../../config/selections.js';
import { didYouMeanSuffix } from '../../shared/did-you-mean.js';
import { quoteInput } from '../../shared/terminal-text.js';
import { UsageError } from '../../errors.js';
import { describeVerb } from '../shared/help.js';
import { completeValues } from '../../completion/values.js';
import { readWhere, type WhereDeps } from '../shared/where.js';

type SelectionDeps = WhereDeps & Pick<Deps, 'output'>;

/** A word typed after @: at most 64 characters (a name is read back in every list and message). */
const NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

export function newSelectionCommand(deps: SelectionDeps): Command {
  const group = new Command('selection').description('Saved selections of devices: a name for a --where expression, used as @NAME');

  const save = new Command('save')
    .description('Save an expression under a name (replacing one of that name)')
    .argument('<name>', 'letters, digits, . _ and -; used as @NAME')
    .requiredOption('--where <expression>', 'the condition (fleetctl help select)');
  completeValues(save, { '--where': 'where' });
  describeVerb(save, {
    output: 'nothing',
    uses: ['profile'],
    examples: [
      { comment: 'the devices that have not reported for a day', command: 'fleetctl selection save quiet --where "seen:>1d"' },
      { comment: 'the stale devices of one fleet, by name', command: 'fleetctl --sandbox selection save stale-north --where "fleet:\\"North Delivery 1\\" stale"' },
    ],
  });
  save.action(async (name: string, flags: { where: string }) => {
    if (!NAME.test(name)) throw new UsageError(`${quoteInput(name)} is not a name for a selection`, 'use up to 64 letters, digits, . _ and -, starting with a letter or digit');
    await readWhere(deps, flags.where, '--where', name);
    const { store, profile } = await profileStore(deps);
    const replaced = await saveSelection(store, profile, name, flags.where);
    deps.io.info(`${replaced ? 'Replaced' : 'Saved'} @${name} for profile "${profile}".`);
  });

  const list = new Command('list').description('List the saved selections of the profile');
  describeVerb(list, { output: 'records', uses: ['profile'], examples: [{ comment: 'every saved selection', command: 'fleetctl selection list' }] });
  list.action(async () => {
    const { saved } = await profileStore(deps);
    const rows = Object.keys(saved).sort().map((name) => ({ name, where: saved[name]! }));
    await deps.output().list(rows, ['name', 'where']);
  });

  const show = new Command('show').description('Print the expression saved under a name').argument('<name>', 'the saved selection');
  completeValues(show, { name: 'selection' });
  describeVerb(show, { output: 'text', uses: ['profile'], examples: [{ comment: 'what @stale-north stands for', command: 'fleetctl selection show stale-north', given: 'fleetctl --sandbox selection save stale-north --where stale' }] });
  show.action(async (name: string) => {
    const { saved } = await profileStore(deps);
    deps.output().text(expressionOf(saved, name));
  });

  const remove = new Command('delete').description('Delete a saved selection').argument('<name>', 'the saved selection');
  completeValues(remove, { name: 'selection' });
  describeVerb(remove, { output: 'nothing', uses: ['profile'], examples: [{ comment: 'forget @stale-north', command: 'fleetctl selection delete stale-north', given: 'fleetctl --sandbox selection save stale-north --where stale' }] });
  remove.action(async (name: string) => {
    const { store, profile, saved } = await profileStore(deps);
    expressionOf(saved, name);
    await deleteSelection(store, profile, name);
    deps.io.info(`Deleted @${name} from profile "${profile}".`);
  });

  return group.addCommand(save).addCommand(list).addCommand(show).addCommand(remove);
}

async function profileStore(deps: SelectionDeps) {
  const store = await deps.config();
  const data = store.read();
  const profile = selectedProfile(deps.globals(), deps.env, data).value;
  return { store, profile, saved: savedSelections(data, profile) };
}

function expressionOf(saved: Readonly<Record<string, string>>, name: string): string {
  const expression = Object.hasOwn(saved, name) ? saved[name] : undefined;
  if (expression === undefined) throw new NotFoundError(`no saved selection ${quoteInput(name)}${didYouMeanSuffix(name, Object.keys(saved))}`, 'fleetctl selection list shows the saved ones');
  return expression;
}
