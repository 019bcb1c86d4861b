// The organization a command acts on: --org, else the profile's default organization.
import type { Command } from 'commander';
import { UsageError } from '../../errors.js';
import type { Deps } from '../../factory.js';
import { environmentVariableFor } from '../../config/settings.js';
import { requireUuid } from './validate.js';
import { completeValues } from '../../completion/values.js';
import type { PickerDeps } from './pick-list.js';
import { pickOrganization } from './pickers.js';

export function addOrganizationOption(command: Command): Command {
  command.option(
    '--org <uuid>',
    `organization id (default: the profile's organization_id, env ${environmentVariableFor('organization_id')}; with neither, picked from a list on a terminal)`,
  );
  return completeValues(command, { '--org': 'organization-id' });
}

/**
 * The organization id to use: the validated --org value, or the configured default (flags > env > profile);
 * with neither, picked on a terminal.
 */
export async function resolveOrganization(deps: Pick<Deps, 'settings'> & PickerDeps, flag: string | undefined): Promise<string> {
  if (flag !== undefined) return flag;
  const setting = (await deps.settings()).organization_id;
  if (setting.value === undefined) {
    if (deps.io.canPrompt()) return pickOrganization(deps);
    throw new UsageError(
      'no organization given',
      `pass --org UUID, or set a default with \`fleetctl config set organization_id UUID\` or ${environmentVariableFor('organization_id')}=UUID`,
    );
  }
  const where = setting.source === 'environment' ? environmentVariableFor('organization_id') : "the profile's organization_id";
  return requireUuid(setting.value, where);
}
