// The uuid text form (RFC 9562 section 4), the one check for ids in paths, flags, bodies and records, on both
// sides: any case is accepted and the lower-case form is kept, the form the API answers with.
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(text: string): boolean {
  return UUID.test(text);
}

/** The lower-case form of a uuid, or undefined when the text is not one. */
export function canonicalUuid(text: string): string | undefined {
  return UUID.test(text) ? text.toLowerCase() : undefined;
}
