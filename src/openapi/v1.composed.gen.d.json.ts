// The type of v1.composed.gen.json (written by src/build/gen-composed.mjs): declared here so that the compiler
// does not infer a type from a document of some hundreds of kilobytes.
declare const composed: { key: string; document: Record<string, unknown> };
export default composed;
