// jq-web ships no types: a CommonJS module whose export is a promise of the loaded WebAssembly build.
declare module 'jq-web' {
  export interface JqError extends Error {
    /** jq's own exit status: 2 usage, 3 compile error, 5 runtime error (or halt_error's). */
    exitCode?: number;
    /** What jq wrote to its stderr. */
    stderr?: string;
  }
  export interface JqInstance {
    /** Runs jq as `jq FLAGS FILTER FILE` on `input` (one or more JSON texts); returns its stdout, or throws on a non-zero exit. */
    raw(input: string, filter: string, flags?: string[]): string;
  }
  const ready: Promise<JqInstance>;
  export default ready;
}
