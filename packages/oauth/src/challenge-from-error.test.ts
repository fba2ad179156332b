import { describe, expect, it } from 'vitest';
import { challengeFromError, isInsufficientScopeError } from './challenge-from-error.js';
import { OAuthError } from './oauth-error.js';

describe('challengeFromError', () => {
  it('reads the error code and scope of an OAuthError, also as the cause of another error', () => {
    const oauth = new OAuthError({
      code: 'AUTH_REQUIRED',
      message: 'needs more',
      oauthErrorCode: 'insufficient_scope',
      requiredScope: 'a b',
    });
    expect(challengeFromError(oauth)).toEqual({ error: 'insufficient_scope', scope: 'a b' });
    const wrapped = new Error('tools/call failed', { cause: new Error('inner', { cause: oauth }) });
    expect(isInsufficientScopeError(wrapped)).toBe(true);
  });

  it('parses a wwwAuthenticate field (TransportError shape) and the scope/resourceMetadataUrl fields', () => {
    const transportLike = Object.assign(new Error('403'), {
      wwwAuthenticate: 'Bearer error="insufficient_scope", scope="x y", resource_metadata="https://mcp.example/prm"',
    });
    expect(challengeFromError(transportLike)).toEqual({
      error: 'insufficient_scope',
      scope: 'x y',
      resourceMetadata: 'https://mcp.example/prm',
    });
    expect(challengeFromError(Object.assign(new Error('401'), { scope: 's', resourceMetadataUrl: 'https://m/prm' }))).toEqual({
      scope: 's',
      resourceMetadata: 'https://m/prm',
    });
  });

  it('returns undefined for errors without a challenge', () => {
    expect(challengeFromError(new Error('plain'))).toBeUndefined();
    expect(challengeFromError('text')).toBeUndefined();
    expect(isInsufficientScopeError(new OAuthError({ code: 'AUTH_REQUIRED', message: 'x' }))).toBe(false);
  });
});
