import type { DpopSession } from '@modelcontextprotocol/client';
import { createDpopSession } from './dpop.js';
import type { FetchFunction } from './guarded-fetch.js';
import { authCommandHint, OAuthError } from './oauth-error.js';
import { requestToken } from './token-endpoint.js';
import { tokenLockName, type StoredOAuthCredentials, type StoredToken, type TokenStore } from './token-store.js';

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
  /** Gives up (a transient failure) when the token endpoint has not answered within this many milliseconds. @default 30000 */
  timeoutMs?: number;
  /** The command that signs in, named in the messages (the server name is appended). @default 'toolhost mcp auth' */
  authCommand?: string;
  /**
   * The signing session of the entry's DPoP key (`credentials.dpopKey`), so that the nonces it
   * remembers are used. @default a new session of `credentials.dpopKey`, when the entry has one
   */
  dpop?: DpopSession;
}

/** How long a refresh request may take before it counts as a transient failure (30 seconds). */
export const REFRESH_TIMEOUT_MS = 30_000;

/**
 * The OAuth errors of a token endpoint that mean the stored credentials can never be refreshed:
 * the refresh token is invalid, expired or revoked (`invalid_grant`), or the client is unknown or
 * may not use it (`invalid_client`, `unauthorized_client`).
 */
const CREDENTIALS_REJECTED = new Set(['invalid_grant', 'invalid_client', 'unauthorized_client']);

/**
 * Refreshes a stored token with its refresh token, sending the RFC 8707 `resource` again.
 * A response without a new refresh token keeps the old one.
 *
 * When the refresh fails, `OAuthError` `REFRESH_FAILED` says why, and the stored entry is
 * deleted only when the authorization server rejected the credentials with an OAuth error
 * (`invalid_grant`, `invalid_client`, `unauthorized_client`): the message then says to authenticate
 * again. A transient failure (network error, no answer within `timeoutMs`, HTTP 5xx or 429) keeps
 * the entry and sets `retryable`; so does any other answer (the next attempt may succeed). An
 * entry without a refresh token is deleted, since nothing can renew it. An entry that records no
 * token endpoint or client id (Gemini CLI and Qwen Code may omit them) cannot be refreshed and
 * is kept: the error says to sign in again.
 *
 * An entry with a DPoP key (`dpopKey`) proves possession of it in the refresh request (RFC 9449
 * §5; a refresh token issued to a public client is bound to that key), and keeps the key.
 *
 * When the store has `withLock` (a store shared by several processes), the refresh runs under the
 * entry's lock: the entry is read again first, and when another process has meanwhile stored
 * another token that is not expiring, that entry is returned without a refresh (so a refresh
 * token that rotates is used once); otherwise the refresh uses the entry as stored now (its
 * refresh token may have rotated), or `credentials` when none is stored.
 */
export async function refreshStoredToken(options: RefreshStoredTokenOptions): Promise<StoredOAuthCredentials> {
  const { credentials, tokenStore } = options;
  if (!tokenStore.withLock) return refreshUnlocked(options);
  const { serverName, issuer } = credentials;
  return tokenStore.withLock(tokenLockName(serverName, issuer), async () => {
    const current = await tokenStore.get(serverName, issuer);
    // Not stored (any more): the credentials given are refreshed, as without a lock.
    if (!current) return refreshUnlocked(options);
    const now = options.now ?? Date.now;
    // Another process refreshed it while this one waited for the lock.
    if (current.token.accessToken !== credentials.token.accessToken && !isTokenExpiring(current.token, now())) return current;
    const sameKey = JSON.stringify(current.dpopKey) === JSON.stringify(credentials.dpopKey);
    const { dpop, ...rest } = options;
    return refreshUnlocked({ ...rest, credentials: current, ...(dpop && sameKey ? { dpop } : {}) });
  });
}

async function refreshUnlocked(options: RefreshStoredTokenOptions): Promise<StoredOAuthCredentials> {
  const { credentials, tokenStore } = options;
  const now = options.now ?? Date.now;
  const { serverName, issuer } = credentials;
  const refreshToken = credentials.token.refreshToken;
  if (!refreshToken) {
    await tokenStore.delete(serverName, issuer);
    throw new OAuthError({
      code: 'REFRESH_FAILED',
      message: `The OAuth token of MCP server '${serverName}' expired and cannot be refreshed; ${authCommandHint(serverName, options.authCommand)}.`,
      serverName,
    });
  }
  if (!credentials.tokenEndpoint || !credentials.client.clientId) {
    // An entry written by Gemini CLI or Qwen Code may lack them; it is theirs too, so it is kept.
    throw new OAuthError({
      code: 'REFRESH_FAILED',
      message: `The OAuth token of MCP server '${serverName}' expired, and its stored entry records no ${credentials.tokenEndpoint ? 'client id' : 'token endpoint'} to refresh it with; ${authCommandHint(serverName)}.`,
      serverName,
    });
  }
  let token: StoredToken;
  const dpop = options.dpop ?? (credentials.dpopKey ? await createDpopSession(credentials.dpopKey, serverName) : undefined);
  try {
    token = await requestToken({
      serverName,
      tokenEndpoint: credentials.tokenEndpoint,
      client: credentials.client,
      params: { grant_type: 'refresh_token', refresh_token: refreshToken, resource: credentials.resource || undefined },
      failureCode: 'REFRESH_FAILED',
      fetch: options.fetch,
      now,
      timeoutMs: options.timeoutMs ?? REFRESH_TIMEOUT_MS,
      ...(dpop ? { dpop } : {}),
    });
  } catch (error) {
    const failure = OAuthError.isInstance(error) ? error : undefined;
    const oauthErrorCode = failure?.oauthErrorCode;
    if (oauthErrorCode !== undefined && CREDENTIALS_REJECTED.has(oauthErrorCode)) {
      await tokenStore.delete(serverName, issuer);
      throw new OAuthError({
        code: 'REFRESH_FAILED',
        message: `${failure?.message} The authorization server rejected the stored credentials, so they were deleted; ${authCommandHint(serverName, options.authCommand)}.`,
        serverName,
        url: credentials.tokenEndpoint,
        oauthErrorCode,
        cause: error,
      });
    }
    // Nothing says the credentials are bad: keep them for the next attempt.
    const retryable = failure ? failure.retryable : true;
    const reason = failure ? failure.message : `Could not refresh the OAuth token for MCP server '${serverName}': ${String(error)}`;
    throw new OAuthError({
      code: 'REFRESH_FAILED',
      message: retryable
        ? `${reason} The stored credentials were kept: this looks temporary, so try again later (no new sign-in is needed).`
        : `${reason} The stored credentials were kept; if this keeps happening, ${authCommandHint(serverName, options.authCommand)}.`,
      serverName,
      url: credentials.tokenEndpoint,
      oauthErrorCode,
      retryable,
      cause: error,
    });
  }
  token.refreshToken ??= refreshToken;
  token.scope ??= credentials.token.scope;
  const updated: StoredOAuthCredentials = { ...credentials, token, updatedAt: now() };
  await tokenStore.set(updated);
  return updated;
}
