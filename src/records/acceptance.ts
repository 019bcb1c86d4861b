// A device command's acceptance (spec: "Device command response (returned on 202): fields not shown"), as the
// record --wait prints with what it adds. Nothing of it is read by name: it is printed as the service sent it.

/**
 * The answer as a record carrying fleetctl's own members beside the service's: an object answer as sent (a
 * member of the same name is fleetctl's, as `--wait` documents it); no body, only `added`; anything else (text,
 * a list) whole under `response`, never spread into characters or indices.
 */
export function acceptanceWith(answer: unknown, added: Record<string, unknown>): Record<string, unknown> {
  if (answer === undefined || answer === null) return { ...added };
  if (typeof answer === 'object' && !Array.isArray(answer)) return { ...(answer as Record<string, unknown>), ...added };
  return { response: answer, ...added };
}
