import type { DpopSession } from '@modelcontextprotocol/client';
import type { McpOAuthConfig } from '@toolhost/config';
import type { ClientAssertionKey } from './client-assertion.js';
import type { AuthorizationServerInfo } from './discover-authorization-server.js';
import type { FetchFunction } from './guarded-fetch.js';
import { OAuthError } from './oauth-error.js';
import { requestIdJag } from './request-id-jag.js';
import { requestToken } from './token-endpoint.js';
import type { StoredClient, StoredToken } from './token-store.js';
import { readWorkloadIdentityToken } from './workload-identity.js';

/**
 * The RFC 7523 grant type that redeems a JWT at the MCP server's authorization server: an ID-JAG
 * (`enterprise_managed`) or the workload identity token (`jwt_bearer`).
 */
export const JWT_BEARER_GRANT_TYPE = 'urn:ietf:params:oauth:grant-type:jwt-bearer';

/** Options of {@link requestTokenWithoutBrowser}. */
export interface NonInteractiveGrantOptions {
  /** Name of the server entry. */
  serverName: string;
  /** The `oauth` block of the entry. */
  oauth: McpOAuthConfig;
  /** The discovered authorization server. */
  authorizationServer: AuthorizationServerInfo;
  /** The configured client (id, secret, auth method). */
  client: StoredClient;
  /** The `private_key_jwt` key, when configured. */
  assertionKey?: ClientAssertionKey;
  /** RFC 8707 resource indicator. */
  resource: string;
  /** Scope to request. */
  scope?: string;
  /** The IdP ID token for `enterprise_managed` (overrides `oauth.idp.idToken`). */
  idpIdToken?: string | (() => Promise<string>);
  /** Environment read for `oauth.assertionEnv` (`jwt_bearer`). @default process.env */
  env?: Readonly<Record<string, string | undefined>>;
  /** HTTP client. */
  fetch: FetchFunction;
  /** Clock. */
  now: () => number;
  /** Binds the token to this DPoP session's key (a proof at the MCP authorization server's token endpoint, not at the IdP). */
  dpop?: DpopSession;
}

function assertGrantSupported(options: NonInteractiveGrantOptions, grant: string): void {
  const supported = options.authorizationServer.grantTypesSupported;
  if (supported && !supported.includes(grant)) {
    throw new OAuthError({
      code: 'GRANT_TYPE_UNSUPPORTED',
      message: `The authorization server of MCP server '${options.serverName}' (${options.authorizationServer.issuer}) does not support the ${grant} grant (grant_types_supported: ${supported.join(', ')}); check oauth.grantType.`,
      serverName: options.serverName,
    });
  }
}

/**
 * Obtains a token without a browser, for `oauth.grantType` `client_credentials` (SEP-1046:
 * `grant_type=client_credentials` with `client_secret_basic`/`_post` or `private_key_jwt`),
 * `enterprise_managed` (an ID-JAG from the enterprise IdP, redeemed with the RFC 7523
 * `jwt-bearer` grant) or `jwt_bearer` (workload identity, SEP-1933: the workload identity token,
 * read again now from `oauth.assertionFile`/`assertionEnv`/`assertion`, as the `assertion` of the
 * `jwt-bearer` grant; the client authenticates only when `oauth.clientId` is set). `resource` and
 * `scope` are sent in every case.
 */
export async function requestTokenWithoutBrowser(options: NonInteractiveGrantOptions): Promise<StoredToken> {
  const { serverName, authorizationServer, oauth } = options;
  const audience = authorizationServer.metadataIssuer ?? authorizationServer.issuer;
  const common = {
    serverName,
    tokenEndpoint: authorizationServer.tokenEndpoint,
    client: options.client,
    authMethodsSupported: authorizationServer.tokenEndpointAuthMethodsSupported,
    failureCode: 'TOKEN_EXCHANGE_FAILED' as const,
    fetch: options.fetch,
    now: options.now,
    ...(options.assertionKey ? { clientAssertion: { key: options.assertionKey, audience } } : {}),
    ...(options.dpop ? { dpop: options.dpop } : {}),
  };
  if (oauth.grantType === 'client_credentials') {
    assertGrantSupported(options, 'client_credentials');
    return requestToken({
      ...common,
      what: 'obtain a client credentials token',
      params: { grant_type: 'client_credentials', scope: options.scope, resource: options.resource },
    });
  }
  assertGrantSupported(options, JWT_BEARER_GRANT_TYPE);
  if (oauth.grantType === 'jwt_bearer') {
    const assertion = await readWorkloadIdentityToken({ serverName, oauth, ...(options.env ? { env: options.env } : {}) });
    return requestToken({
      ...common,
      what: 'obtain a token with the workload identity token (jwt-bearer grant)',
      params: { grant_type: JWT_BEARER_GRANT_TYPE, assertion, scope: options.scope, resource: options.resource },
    });
  }
  if (!oauth.idp) {
    throw new OAuthError({
      code: 'INVALID_CONFIG',
      message: `MCP server '${serverName}' uses grantType "enterprise_managed" but has no oauth.idp block (clientId, tokenUrl or issuer).`,
      serverName,
    });
  }
  const idJag = await requestIdJag({
    serverName,
    idp: oauth.idp,
    idToken: options.idpIdToken ?? oauth.idp.idToken,
    audience,
    resource: options.resource,
    scope: options.scope,
    fetch: options.fetch,
    now: options.now,
  });
  return requestToken({
    ...common,
    what: 'redeem the ID-JAG for an access token',
    params: { grant_type: JWT_BEARER_GRANT_TYPE, assertion: idJag, scope: options.scope, resource: options.resource },
  });
}
