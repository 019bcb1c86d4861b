// What a route answers, before the pipeline writes it: a leaf, so problems.ts can build one without importing
// the request context (which itself throws problems).
export interface Reply {
  status: number;
  headers?: Record<string, string>;
  /** Serialized as application/json (or application/problem+json for problems). */
  json?: unknown;
  /** A raw body, sent with headers['content-type']. */
  body?: Buffer | string;
}
