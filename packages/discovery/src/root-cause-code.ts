/** How deep {@link rootCauseCode} follows `cause` links (guards against cycles and absurd chains). */
const MAX_CAUSE_DEPTH = 16;

function isToolhostError(value: object): boolean {
  return Object.getOwnPropertySymbols(value).some(
    (symbol) => symbol.description?.startsWith('toolhost.') === true && (value as Record<symbol, unknown>)[symbol] === true,
  );
}

/**
 * The stable code of the root cause of `error`: walks the `cause` chain below `error` and returns
 * the `code` of the deepest toolhost error in it (one carrying a `Symbol.for('toolhost.<family>')`
 * brand, such as a `TransportError` or an `OAuthError`). When no error in the chain is a toolhost
 * error, the immediate cause's string `code` (e.g. a Node.js `ECONNREFUSED`), else undefined.
 *
 * @example
 * // DiscoveryError CONNECT_FAILED → TransportError CONNECT_FAILED → OAuthError AUTH_REQUIRED
 * rootCauseCode(error) // 'AUTH_REQUIRED'
 */
export function rootCauseCode(error: unknown): string | undefined {
  const immediate = (error as { cause?: unknown } | null | undefined)?.cause;
  const immediateCode = (immediate as { code?: unknown } | null | undefined)?.code;
  let found: string | undefined;
  const seen = new Set<unknown>([error]);
  let current = immediate;
  for (let depth = 0; depth < MAX_CAUSE_DEPTH && typeof current === 'object' && current !== null && !seen.has(current); depth++) {
    seen.add(current);
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && isToolhostError(current)) found = code;
    current = (current as { cause?: unknown }).cause;
  }
  return found ?? (typeof immediateCode === 'string' ? immediateCode : undefined);
}
