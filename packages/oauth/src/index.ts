// Public API of @toolhost/oauth: the auth provider for remote MCP servers, sign-in, token stores, the URL
// guard and errors. The protocol steps are on @toolhost/oauth/protocol, the Google providers on
// @toolhost/oauth/google, the token file layouts on @toolhost/oauth/token-files.
export { OAuthError, type OAuthErrorCode, type OAuthErrorOptions } from './oauth-error.js';
export { authenticate, type AuthenticateOptions } from './authenticate.js';
export type { OAuthWarning, OAuthWarningListener } from './oauth-warning.js';
export { StoredTokenOAuthProvider, type StoredTokenOAuthProviderOptions } from './stored-token-provider.js';
export { createAuthProvider, type CreateAuthProviderOptions } from './create-auth-provider.js';
export { getAuthStatus, type AuthStatus } from './get-auth-status.js';
export {
  discoverAuthorizationServer,
  type AuthorizationServerInfo,
  type DiscoveryResult,
  type DiscoverAuthorizationServerOptions,
} from './discover-authorization-server.js';
export { parseWwwAuthenticate, type BearerChallenge } from './www-authenticate.js';
export { challengeFromError, isInsufficientScopeError } from './challenge-from-error.js';
export {
  refreshStoredToken,
  isTokenExpiring,
  TOKEN_REFRESH_BUFFER_MS,
  REFRESH_TIMEOUT_MS,
  type RefreshStoredTokenOptions,
} from './refresh-stored-token.js';
export type { TokenStore, StoredOAuthCredentials, StoredToken, StoredClient, StoredDpopKey } from './token-store.js';
export { InMemoryTokenStore } from './in-memory-token-store.js';
export {
  openBrowserSafely,
  assertBrowserSafeUrl,
  browserCommand,
  type OpenBrowser,
  type OpenBrowserSafelyOptions,
} from './open-browser.js';
export { createRedirectFollowingOpener } from './redirect-following-opener.js';
export { createUrlGuard, isPrivateAddress, parseSafeHttpUrl, type UrlGuard, type UrlGuardOptions, type HostResolver } from './url-guard.js';
export { createPinnedFetch, type FetchFunction } from './guarded-fetch.js';
