// The page size every list endpoint takes, for the CLI's checks before a request and the sandbox's answers alike.
// spec (Limits): "Page size `limit` | 1 to 500, default 50 | All list endpoints"; v1.json's Limit parameter says
// the same (test/shared/page-limits.test.ts holds them together).

export const MIN_LIMIT = 1;
export const MAX_LIMIT = 500;
export const DEFAULT_LIMIT = 50;
