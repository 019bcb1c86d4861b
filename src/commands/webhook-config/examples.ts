// Pieces of the --help examples. Every example must work as written against `--sandbox`, whatever state an
// earlier command left behind, so those that need a configuration make sure one exists first.
export const EXAMPLE_URL = 'https://hooks.example.com/fleet';

/** Creates a (disabled) configuration with an events topic unless the organization already has one. */
const ensureConfig = (fleetctl: string) =>
  `${fleetctl} webhook-config get >/dev/null 2>&1 || ${fleetctl} webhook-config create --url ${EXAMPLE_URL} --topics events >/dev/null 2>&1`;

export const ENSURE_EXAMPLE_CONFIG = ensureConfig('fleetctl --sandbox');

/** The same against the configured API: the state a first example (a plain command) presumes. */
export const GIVEN_CONFIG = ensureConfig('fleetctl');

/** No configuration, for a first example that creates one. */
export const GIVEN_NO_CONFIG = 'fleetctl webhook-config delete --yes >/dev/null 2>&1; true';

/** The current ETag, for --if-match. */
export const CURRENT_ETAG = '"$(fleetctl --sandbox webhook-config get --columns etag | cut -f2)"';

/** A desired-state document for diff and apply examples (single-quoted in the shell). */
export const DESIRED_EXAMPLE = JSON.stringify({
  is_enabled: true,
  topics: [
    { type: 'events', delivery: { url: EXAMPLE_URL } },
    { type: 'alarms', is_enabled: false, delivery: { url: 'https://hooks.example.com/alarms' } },
  ],
});

/** The desired-state document in ./webhooks.json, for a first example that reads a file. */
export const GIVEN_DESIRED_FILE = `echo '${DESIRED_EXAMPLE}' > webhooks.json`;
