// Turning an API error into words about the user's own objects, keeping its status (so its exit code) and code.
import { ApiError } from '../../errors.js';

/** The same error, with its detail (what main.ts prints, and the problem printed with -o json) replaced. */
export function rephrase(error: ApiError, detail: string, hint?: string): ApiError {
  const rephrased = new ApiError({
    status: error.status,
    problem: { ...(error.problem ?? { status: error.status }), detail },
    retryAfter: error.retryAfter,
    hint: hint ?? error.hint,
  });
  rephrased.resume = error.resume;
  return rephrased;
}

/**
 * Runs the call; an ApiError with one of these (status, code) pairs is rephrased. A case without a code is for
 * any other code of that status, and only when the problem says nothing more: the spec promises a `code` and
 * shows no other member, so a service's own detail is kept and its bare code gets these words.
 */
export async function rephrasing<T>(call: () => Promise<T>, cases: { status: number; code?: string; detail: string; hint?: string }[]): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof ApiError) {
      const match =
        cases.find((c) => c.status === error.status && c.code !== undefined && c.code === error.code) ??
        cases.find((c) => c.status === error.status && c.code === undefined && error.detail === undefined && error.title === undefined);
      if (match) throw rephrase(error, match.detail, match.hint);
    }
    throw error;
  }
}
