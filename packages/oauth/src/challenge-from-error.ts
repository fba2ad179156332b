import { OAuthError } from './oauth-error.js';
import { parseWwwAuthenticate, type BearerChallenge } from './www-authenticate.js';

const MAX_CAUSE_DEPTH = 5;

function fromFields(value: Record<string, unknown>): BearerChallenge | undefined {
  const challenge: BearerChallenge = {
    ...(typeof value.wwwAuthenticate === 'string' ? parseWwwAuthenticate(value.wwwAuthenticate) : undefined),
  };
  if (OAuthError.isInstance(value)) {
    if (value.oauthErrorCode && !challenge.error) challenge.error = value.oauthErrorCode;
    if (value.requiredScope && !challenge.scope) challenge.scope = value.requiredScope;
  }
  if (typeof value.scope === 'string' && !challenge.scope) challenge.scope = value.scope;
  if (typeof value.resourceMetadataUrl === 'string' && !challenge.resourceMetadata) challenge.resourceMetadata = value.resourceMetadataUrl;
  return Object.keys(challenge).length > 0 ? challenge : undefined;
}

/**
 * The `Bearer` challenge an error carries, for `authenticate({ challenge })` after a failed
 * request: from an `OAuthError` (`oauthErrorCode`, `requiredScope`), or an error with a
 * `wwwAuthenticate` header value, `scope` or `resourceMetadataUrl` field (`TransportError` of
 * `@toolhost/transport`), looking through `cause` chains. `undefined` when none is found.
 *
 * @example
 * ```ts
 * const challenge = challengeFromError(error);
 * if (challenge?.error === 'insufficient_scope') await authenticate(name, entry, { challenge, tokenStore });
 * ```
 */
export function challengeFromError(error: unknown): BearerChallenge | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < MAX_CAUSE_DEPTH && typeof current === 'object' && current !== null; depth++) {
    const found = fromFields(current as Record<string, unknown>);
    if (found) return found;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** True when an error (or its cause chain) is a 403 `insufficient_scope` challenge: re-authorize with its scope (step-up). */
export function isInsufficientScopeError(error: unknown): boolean {
  return challengeFromError(error)?.error === 'insufficient_scope';
}
