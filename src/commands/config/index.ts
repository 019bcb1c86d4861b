// config list|get|set|unset|profiles|use: the profiles of the config store.
import { Command } from 'commander';
import type { Deps } from '../../factory.js';
import { UsageError } from '../../errors.js';
import { PROFILE_KEYS } from '../../config/store.js';
import { checkProfileName, DEFAULT_PROFILE, requireStoredProfile, resolveSettings, selectedProfile } from '../../config/settings.js';
import { describeVerb } from '../shared/help.js';
import { completeValues } from '../../completion/values.js';
import { requireNonEmpty, requireUuid } from '../shared/validate.js';
import { displayValue, requireProfileKey } from './keys.js';
import { readAll } from '../../io/read-input.js';
import { recordedChange } from '../../ledger/recorder.js';
import { quoteInput } from '../../shared/terminal-text.js';
import path from 'node:path';

type ConfigDeps = Pick<Deps, 'config' | 'output' | 'io' | 'env' | 'globals' | 'signal' | 'ledger'>;

export function newConfigCommand(deps: ConfigDeps): Command {
  const config = new Command('config').description('Profiles and settings (base_url, auth_url, client_id, client_secret, scopes, organization_id, ca_file)');

  const list = new Command('list').description('Show the settings of the profile and where each comes from');
  describeVerb(list, { output: 'records', uses: ['profile', 'endpoints'], examples: [{ comment: 'settings of the current profile', command: 'fleetctl config list' }] });
  list.action(async () => {
    const store = await deps.config();
    const settings = resolveSettings(deps.globals(), deps.env, store.read());
    const rows = PROFILE_KEYS.map((key) => ({
      key,
      value: displayValue(key, settings[key].value) ?? '',
      source: settings[key].source ?? '',
    }));
    deps.io.info(`Profile: ${settings.profile.value} (${store.path})`);
    await deps.output().list(rows, ['key', 'value', 'source']);
  });

  const get = new Command('get').description('Print one setting of the profile').argument('<key>', PROFILE_KEYS.join(' | '));
  completeValues(get, { key: { words: PROFILE_KEYS } });
  describeVerb(get, { output: 'text', uses: ['profile', 'endpoints'], examples: [{ comment: 'the base URL in use', command: 'fleetctl config get base_url' }] });
  get.action(async (rawKey: string) => {
    const key = requireProfileKey(rawKey);
    const store = await deps.config();
    const setting = resolveSettings(deps.globals(), deps.env, store.read())[key];
    const value = displayValue(key, setting.value);
    if (value === undefined) throw new UsageError(`${key} is not set for this profile`, `set it with \`fleetctl config set ${key} VALUE\``);
    deps.output().text(value);
  });

  const set = new Command('set').description('Store a setting in the profile').argument('<key>', PROFILE_KEYS.join(' | ')).argument('[value]', 'the value; for client_secret, omit it to read it from stdin');
  completeValues(set, { key: { words: PROFILE_KEYS } });
  describeVerb(set, {
    output: 'nothing',
    uses: ['profile'],
    // setting a value is how a profile is made explicitly: `fleetctl --profile staging config set base_url URL`
    makesProfile: true,
    examples: [
      { comment: 'point the profile at a local sandbox', command: 'fleetctl config set base_url http://127.0.0.1:4010' },
      { comment: 'store the secret without putting it on the command line', command: 'printf %s "$FLEETCTL_CLIENT_SECRET" | fleetctl config set client_secret' },
    ],
  });
  set.action(async (rawKey: string, rawValue: string | undefined) => {
    const key = requireProfileKey(rawKey);
    let value = rawValue;
    if (value === undefined || (key === 'client_secret' && value === '-')) {
      if (key !== 'client_secret') throw new UsageError(`missing the value for ${key}`, `fleetctl config set ${key} VALUE`);
      value = (await readAll(deps.io.in, `the ${key} on stdin`, { signal: deps.signal })).trim();
    } else if (key === 'client_secret') {
      deps.io.warn('a secret on the command line stays in your shell history; pipe it on stdin instead.');
    }
    value = await validateSetting(key, requireNonEmpty(value, key));
    const store = await deps.config();
    const profile = selectedProfile(deps.globals(), deps.env, store.read()).value;
    let created = false;
    // the ledger names the setting, never its value (a secret, or a command that prints one)
    await recordedChange(deps.ledger(), { command: 'config set', target: `profile ${profile} ${key}`, outcome: 'set' }, () =>
      store.update((data) => {
        created = data.profiles[profile] === undefined;
        data.profiles[profile] = { ...data.profiles[profile], [key]: value };
      }),
    );
    deps.io.info(`Set ${key} for ${created && profile !== DEFAULT_PROFILE ? 'the new ' : ''}profile "${profile}".`);
  });

  const unset = new Command('unset').description('Remove a setting from the profile').argument('<key>', PROFILE_KEYS.join(' | '));
  completeValues(unset, { key: { words: PROFILE_KEYS } });
  describeVerb(unset, { output: 'nothing', uses: ['profile'], examples: [{ comment: 'forget the default organization', command: 'fleetctl config unset organization_id' }] });
  unset.action(async (rawKey: string) => {
    const key = requireProfileKey(rawKey);
    const store = await deps.config();
    const profile = selectedProfile(deps.globals(), deps.env, store.read()).value;
    await recordedChange(deps.ledger(), { command: 'config unset', target: `profile ${profile} ${key}`, outcome: 'unset' }, () =>
      store.update((data) => {
        if (data.profiles[profile]) delete data.profiles[profile][key];
      }),
    );
    deps.io.info(`Unset ${key} for profile "${profile}".`);
  });

  const profiles = new Command('profiles').description('List the stored profiles; * marks the current one');
  describeVerb(profiles, { output: 'records', uses: ['profile'], examples: [{ comment: 'every profile', command: 'fleetctl config profiles' }] });
  profiles.action(async () => {
    const store = await deps.config();
    const data = store.read();
    const current = selectedProfile(deps.globals(), deps.env, data).value;
    const names = new Set([...Object.keys(data.profiles), current]);
    const rows = [...names].sort().map((name) => ({
      current: name === current ? '*' : '',
      name,
      base_url: data.profiles[name]?.base_url ?? '',
      client_id: data.profiles[name]?.client_id ?? '',
    }));
    await deps.output().list(rows, ['current', 'name', 'base_url', 'client_id']);
  });

  const use = new Command('use')
    .description('Make a profile the current one')
    .argument('<profile>', 'profile name')
    .option('--create', 'make the profile, empty, when it does not exist');
  completeValues(use, { profile: 'profile' });
  describeVerb(use, {
    output: 'nothing',
    examples: [
      { comment: 'switch to the staging profile', command: 'fleetctl config use staging', given: 'fleetctl --profile staging config set base_url https://staging.example.com' },
      { comment: 'make a new, empty profile and switch to it', command: 'fleetctl config use lab --create' },
    ],
  });
  use.action(async (profile: string, flags: { create?: boolean }) => {
    checkProfileName(profile, 'the profile name');
    const store = await deps.config();
    // a typo must not switch to an empty profile: only --create makes one
    if (!flags.create) requireStoredProfile(profile, store.read(), 'config use');
    let created = false;
    await store.update((data) => {
      data.current_profile = profile;
      created = data.profiles[profile] === undefined;
      data.profiles[profile] ??= {};
    });
    deps.io.info(`Now using profile "${profile}"${created ? ', a new, empty profile: set it up with `fleetctl auth login`' : ''}.`);
  });

  return config.addCommand(list).addCommand(get).addCommand(set).addCommand(unset).addCommand(profiles).addCommand(use);
}

async function validateSetting(key: string, value: string): Promise<string> {
  if (key === 'base_url' || key === 'auth_url') {
    try {
      const url = new URL(value);
      if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error('not http(s)');
    } catch {
      throw new UsageError(`${key} must be an absolute http(s) URL, got ${quoteInput(value)}`);
    }
    return value.replace(/\/+$/, '');
  }
  if (key === 'organization_id') return requireUuid(value, 'organization_id');
  if (key === 'ca_file') {
    // checked now rather than at the next command, and kept absolute: commands run from anywhere
    const { readCaBundle } = await import('../../http/dispatcher.js');
    await readCaBundle(value, 'ca_file');
    return path.resolve(value);
  }
  return value;
}
