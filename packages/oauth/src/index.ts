// Public API of @toolhost/oauth.
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
export {
  protectedResourceMetadataUrls,
  authorizationServerMetadataUrls,
  canonicalResourceUri,
  resourceMatchesServer,
} from './well-known-urls.js';
export { parseWwwAuthenticate, type BearerChallenge } from './www-authenticate.js';
export { challengeFromError, isInsufficientScopeError } from './challenge-from-error.js';
export { selectScopes, type SelectScopesInput } from './select-scopes.js';
export { buildAuthorizationUrl, assertPkceSupport, type BuildAuthorizationUrlOptions } from './build-authorization-url.js';
export { createPkceParameters, type PkceParameters } from './pkce.js';
export {
  planClientIdentity,
  registerClient,
  isClientMetadataDocumentUrl,
  applicationTypeFor,
  type ApplicationType,
  type ClientIdentityPlan,
  type RegisterClientOptions,
} from './register-client.js';
export { requestToken, selectTokenEndpointAuthMethod, type TokenEndpointAuthMethod, type RequestTokenOptions } from './token-endpoint.js';
export {
  createClientAssertion,
  loadClientAssertionKey,
  defaultSigningAlgorithm,
  JWT_BEARER_CLIENT_ASSERTION_TYPE,
  type ClientAssertionKey,
  type CreateClientAssertionOptions,
  type JwtSigningAlgorithm,
} from './client-assertion.js';
export { requestTokenWithoutBrowser, JWT_BEARER_GRANT_TYPE, type NonInteractiveGrantOptions } from './non-interactive-grants.js';
export { readWorkloadIdentityToken, type ReadWorkloadIdentityTokenOptions } from './workload-identity.js';
export { requestIdJag, TOKEN_EXCHANGE_GRANT_TYPE, ID_TOKEN_TYPE, ID_JAG_TOKEN_TYPE, type RequestIdJagOptions } from './request-id-jag.js';
export {
  refreshStoredToken,
  isTokenExpiring,
  TOKEN_REFRESH_BUFFER_MS,
  REFRESH_TIMEOUT_MS,
  type RefreshStoredTokenOptions,
} from './refresh-stored-token.js';
export type { TokenStore, StoredOAuthCredentials, StoredToken, StoredClient, StoredDpopKey } from './token-store.js';
export { InMemoryTokenStore } from './in-memory-token-store.js';
export { FileTokenStore, DPOP_KEY_FILE_NAME, type FileTokenStoreOptions, type TokenFileFormat } from './file-token-store.js';
export {
  planDpop,
  generateDpopKey,
  createDpopSession,
  dpopKeyThumbprint,
  DEFAULT_DPOP_ALGORITHM,
  type DpopSetting,
  type PlanDpopInput,
} from './dpop.js';
export {
  startCallbackServer,
  escapeHtml,
  DEFAULT_REDIRECT_URI,
  DEFAULT_CALLBACK_TIMEOUT_MS,
  type CallbackServer,
  type CallbackServerOptions,
} from './callback-server.js';
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
