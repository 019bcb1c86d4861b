// The extensions on PATH as `fleetctl extension list`, `fleetctl --help` and completion show them: each with the
// executable that runs, and whether a command of fleetctl or an alias takes its name first (then it never runs).
// No file is read here: main.ts formats help with it.

export type Shadow = 'command' | 'alias';

export interface ListedExtension {
  name: string;
  path: string;
  /** What runs instead when the name is typed: fleetctl's command of that name, or the user's alias. */
  shadowed_by: Shadow | null;
}

/** What takes the first word before an extension: fleetctl's own commands, then the aliases. */
export interface FirstWordOwners {
  builtIns: ReadonlySet<string>;
  aliases: Readonly<Record<string, string>>;
}

export function shadowOf(name: string, owners: FirstWordOwners): Shadow | null {
  if (owners.builtIns.has(name)) return 'command';
  if (Object.hasOwn(owners.aliases, name)) return 'alias';
  return null;
}

/** How a shadowed extension reads beside its path: what runs instead. */
export function shadowNote(extension: ListedExtension): string {
  if (extension.shadowed_by === null) return '';
  return extension.shadowed_by === 'command' ? ` (shadowed by the command ${extension.name})` : ` (shadowed by the alias ${extension.name})`;
}

/** How the extensions read in `fleetctl --help` and in the reference: a section of their own, as the aliases. */
export function extensionsSection(extensions: readonly ListedExtension[]): string {
  if (extensions.length === 0) return '';
  const width = Math.max(...extensions.map((extension) => extension.name.length));
  const lines = extensions.map((extension) => `  ${extension.name.padEnd(width)}  ${extension.path}${shadowNote(extension)}`);
  return `Extensions (fleetctl extension list):\n${lines.join('\n')}\n\n`;
}
