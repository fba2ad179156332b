import { ToolhostError, findErrorInChain } from '@toolhost/contract';

/**
 * The `retryable` flag of the root cause of `error` (the deepest toolhost error in its `cause`
 * chain), when it has one: `true` for a failure that may pass on the next attempt with nothing
 * changed, such as an OAuth `REFRESH_FAILED` after a network error (the credentials were kept).
 */
export function rootCauseRetryable(error: unknown): boolean | undefined {
  const immediate = (error as { cause?: unknown } | null | undefined)?.cause;
  const deepest = findErrorInChain(immediate, (e): e is ToolhostError => ToolhostError.isInstance(e));
  const retryable = (deepest as { retryable?: unknown } | undefined)?.retryable;
  return typeof retryable === 'boolean' ? retryable : undefined;
}

/**
 * The stable code of the root cause of `error`: walks the `cause` chain below `error` and returns
 * the `code` of the deepest toolhost error in it (any `ToolhostError`, such as a `TransportError`
 * or an `OAuthError`, also from another copy of its package). When no error in the chain is a
 * toolhost error, the immediate cause's string `code` (e.g. a Node.js `ECONNREFUSED`), else
 * undefined.
 *
 * @example
 * // DiscoveryError CONNECT_FAILED → TransportError CONNECT_FAILED → OAuthError AUTH_REQUIRED
 * rootCauseCode(error) // 'AUTH_REQUIRED'
 */
export function rootCauseCode(error: unknown): string | undefined {
  const immediate = (error as { cause?: unknown } | null | undefined)?.cause;
  const deepest = findErrorInChain(immediate, (e): e is ToolhostError => ToolhostError.isInstance(e));
  if (deepest) return deepest.code;
  const immediateCode = (immediate as { code?: unknown } | null | undefined)?.code;
  return typeof immediateCode === 'string' ? immediateCode : undefined;
}
