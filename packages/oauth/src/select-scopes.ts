import type { BearerChallenge } from './www-authenticate.js';

/** Inputs of {@link selectScopes}. */
export interface SelectScopesInput {
  /** `oauth.scopes` of the server entry. */
  configScopes?: readonly string[];
  /** The challenge that started the flow. */
  challenge?: BearerChallenge;
  /** `scopes_supported` of the protected-resource metadata. */
  resourceScopesSupported?: readonly string[];
  /** Scopes of the token held before a step-up. */
  previousScope?: string;
}

function split(scope: string | undefined): string[] {
  return scope ? scope.split(/\s+/).filter(Boolean) : [];
}

/**
 * Chooses the `scope` to request: the entry's `oauth.scopes`, else the challenge's `scope`,
 * else the metadata's `scopes_supported`, else none. A 403 `insufficient_scope` challenge
 * (step-up) requests the union of what was held or configured and what the challenge asks for.
 */
export function selectScopes(input: SelectScopesInput): string | undefined {
  const challengeScopes = split(input.challenge?.scope);
  let scopes: string[];
  if (input.challenge?.error === 'insufficient_scope' && challengeScopes.length > 0) {
    scopes = [...new Set([...split(input.previousScope), ...(input.configScopes ?? []), ...challengeScopes])];
  } else if (input.configScopes && input.configScopes.length > 0) {
    scopes = [...input.configScopes];
  } else if (challengeScopes.length > 0) {
    scopes = challengeScopes;
  } else {
    scopes = [...(input.resourceScopesSupported ?? [])];
  }
  return scopes.length > 0 ? scopes.join(' ') : undefined;
}
