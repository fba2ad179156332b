// Public API of @toolhost/oauth/protocol: the steps of the OAuth flow one by one (discovery URLs, scopes,
// PKCE, registration, the token endpoint, client assertions, browserless grants, DPoP, the loopback
// callback), for hosts that compose their own flow. `authenticate` and `createAuthProvider` (the root)
// run them for you.
export {
  protectedResourceMetadataUrls,
  authorizationServerMetadataUrls,
  canonicalResourceUri,
  resourceMatchesServer,
} from './well-known-urls.js';
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
