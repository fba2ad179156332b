import type { FetchFunction } from './guarded-fetch.js';
import { authCommandHint, OAuthError } from './oauth-error.js';
import { requestToken } from './token-endpoint.js';
import type { StoredOAuthCredentials, StoredToken, TokenStore } from './token-store.js';

/** A token is refreshed this long before it expires (5 minutes). */
export const TOKEN_REFRESH_BUFFER_MS = 300_000;

/** True when `token` expires within {@link TOKEN_REFRESH_BUFFER_MS}; a token without expiry never does. */
export function isTokenExpiring(token: StoredToken, now: number, bufferMs = TOKEN_REFRESH_BUFFER_MS): boolean {
  return token.expiresAt !== undefined && now + bufferMs >= token.expiresAt;
}

/** Options of {@link refreshStoredToken}. */
export interface RefreshStoredTokenOptions {
  /** The stored entry to refresh. */
  credentials: StoredOAuthCredentials;
  /** The store to update (or delete from, when the refresh fails). */
  tokenStore: TokenStore;
  /** HTTP client. */
  fetch: FetchFunction;
  /** Clock. @default Date.now */
  now?: () => number;
}

/**
 * Refreshes a stored token with its refresh token, sending the RFC 8707 `resource` again.
 * A response without a new refresh token keeps the old one. When the refresh is impossible
 * or fails, the stored entry is deleted and `OAuthError` `REFRESH_FAILED` says to authenticate again.
 */
export async function refreshStoredToken(options: RefreshStoredTokenOptions): Promise<StoredOAuthCredentials> {
  const { credentials, tokenStore } = options;
  const now = options.now ?? Date.now;
  const { serverName, issuer } = credentials;
  const refreshToken = credentials.token.refreshToken;
  if (!refreshToken) {
    await tokenStore.delete(serverName, issuer);
    throw new OAuthError({
      code: 'REFRESH_FAILED',
      message: `The OAuth token of MCP server '${serverName}' expired and cannot be refreshed; ${authCommandHint(serverName)}.`,
      serverName,
    });
  }
  let token: StoredToken;
  try {
    token = await requestToken({
      serverName,
      tokenEndpoint: credentials.tokenEndpoint,
      client: credentials.client,
      params: { grant_type: 'refresh_token', refresh_token: refreshToken, resource: credentials.resource },
      failureCode: 'REFRESH_FAILED',
      fetch: options.fetch,
      now,
    });
  } catch (error) {
    await tokenStore.delete(serverName, issuer);
    const reason = OAuthError.isInstance(error) ? error.message : String(error);
    throw new OAuthError({
      code: 'REFRESH_FAILED',
      message: `${reason} The stored token was deleted; ${authCommandHint(serverName)}.`,
      serverName,
      url: credentials.tokenEndpoint,
      oauthErrorCode: OAuthError.isInstance(error) ? error.oauthErrorCode : undefined,
      cause: error,
    });
  }
  token.refreshToken ??= refreshToken;
  token.scope ??= credentials.token.scope;
  const updated: StoredOAuthCredentials = { ...credentials, token, updatedAt: now() };
  await tokenStore.set(updated);
  return updated;
}
