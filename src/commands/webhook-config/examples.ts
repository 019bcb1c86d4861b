// Pieces of the --help examples. Every example must work as written against `--sandbox`, whatever state an
// earlier command left behind, so those that need a configuration make sure one exists first.
export const EXAMPLE_URL = 'https://hooks.example.com/fleet';

/** Creates a (disabled) configuration with an events topic unless the organization already has one. */
export const ENSURE_EXAMPLE_CONFIG =
  `fleetctl --sandbox webhook-config get >/dev/null 2>&1 || fleetctl --sandbox webhook-config create --url ${EXAMPLE_URL} --topics events >/dev/null 2>&1`;

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
