// The global flags typed before the name of something fleetctl hands the line to (a --shell alias's script, an
// extension on PATH), as environment variables: the program it runs, and any fleetctl that program calls, read
// them there. A flag that no variable carries would be lost on the way: the caller refuses it.

/** Which flags the variables carry: a flag taking a value names its variable; a switch sets variables to values. */
export interface CarriedFlags {
  values: Readonly<Record<string, string>>;
  switches: Readonly<Record<string, Readonly<Record<string, string>>>>;
}

/** What a --shell alias passes on: the flags fleetctl itself reads from its environment too. */
export const FLAGS_FLEETCTL_READS: CarriedFlags = {
  values: { '--profile': 'FLEETCTL_PROFILE', '--base-url': 'FLEETCTL_BASE_URL', '--auth-url': 'FLEETCTL_AUTH_URL', '--ca-file': 'FLEETCTL_CA_FILE', '--log-format': 'FLEETCTL_LOG_FORMAT' },
  switches: { '--debug': { FLEETCTL_DEBUG: '1' }, '--no-color': { NO_COLOR: '1' } },
};

/** The flags `carried` knows, as the words a person types them. */
export function carriedFlagNames(carried: CarriedFlags): string[] {
  return [...Object.keys(carried.values), ...Object.keys(carried.switches)];
}

/**
 * The variables the flags in `before` stand for (`--profile lab`, `--profile=lab`, `-o json`, `-ojson`). A flag
 * `carried` does not know is handed to `refuse`, whose error is thrown.
 */
export function flagsAsEnv(before: readonly string[], carried: CarriedFlags, refuse: (flag: string) => Error): Record<string, string> {
  const context: Record<string, string> = {};
  for (let i = 0; i < before.length; i++) {
    const word = before[i]!;
    const [flag, inline] = splitFlag(word);
    if (Object.hasOwn(carried.values, flag)) {
      const value = inline ?? before[++i];
      if (value !== undefined) context[carried.values[flag]!] = value;
    } else if (inline === undefined && Object.hasOwn(carried.switches, word)) {
      Object.assign(context, carried.switches[word]);
    } else {
      throw refuse(flag);
    }
  }
  return context;
}

/** `--flag=value` and `-xvalue` as flag and value; any other word is a flag alone. */
function splitFlag(word: string): [flag: string, inline: string | undefined] {
  if (word.startsWith('--')) {
    const at = word.indexOf('=');
    return at > 0 ? [word.slice(0, at), word.slice(at + 1)] : [word, undefined];
  }
  if (/^-[A-Za-z]./.test(word)) return [word.slice(0, 2), word.slice(2)];
  return [word, undefined];
}
