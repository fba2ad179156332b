import type { McpOAuthConfig } from '@toolhost/config';
import type { FetchFunction } from './guarded-fetch.js';
import { readJsonObject } from './guarded-fetch.js';
import { OAuthError } from './oauth-error.js';
import { requestToken } from './token-endpoint.js';
import { parseSafeHttpUrl } from './url-guard.js';
import { authorizationServerMetadataUrls } from './well-known-urls.js';

/** RFC 8693 token exchange grant type. */
export const TOKEN_EXCHANGE_GRANT_TYPE = 'urn:ietf:params:oauth:grant-type:token-exchange';
/** Token type of an OpenID Connect ID token (the subject token). */
export const ID_TOKEN_TYPE = 'urn:ietf:params:oauth:token-type:id_token';
/** Token type of an Identity Assertion JWT Authorization Grant. */
export const ID_JAG_TOKEN_TYPE = 'urn:ietf:params:oauth:token-type:id-jag';

/** Options of {@link requestIdJag}. */
export interface RequestIdJagOptions {
  /** Name of the server entry, for messages. */
  serverName: string;
  /** The `oauth.idp` block. */
  idp: NonNullable<McpOAuthConfig['idp']>;
  /** The user's ID token, or a function that returns it. */
  idToken: string | (() => Promise<string>) | undefined;
  /** Issuer of the MCP server's authorization server (the ID-JAG's audience). */
  audience: string;
  /** RFC 9728 resource identifier of the MCP server. */
  resource: string;
  /** Scopes requested at the MCP server. */
  scope?: string;
  /** HTTP client. */
  fetch: FetchFunction;
  /** Clock. */
  now: () => number;
}

async function idpTokenEndpoint(options: RequestIdJagOptions): Promise<string> {
  const { idp, serverName } = options;
  if (idp.tokenUrl) return parseSafeHttpUrl(idp.tokenUrl, { serverName, what: 'configured oauth.idp.tokenUrl' }).href;
  if (!idp.issuer) {
    throw new OAuthError({
      code: 'INVALID_CONFIG',
      message: `The oauth.idp block of MCP server '${serverName}' needs tokenUrl or issuer.`,
      serverName,
    });
  }
  const issuer = parseSafeHttpUrl(idp.issuer, { serverName, what: 'configured oauth.idp.issuer' });
  for (const url of authorizationServerMetadataUrls(issuer.href)) {
    const response = await options.fetch(url, { headers: { accept: 'application/json' } }).catch(() => undefined);
    const body = response?.ok ? await readJsonObject(response) : undefined;
    if (typeof body?.token_endpoint === 'string') {
      return parseSafeHttpUrl(body.token_endpoint, { serverName, what: 'token_endpoint of the enterprise IdP' }).href;
    }
  }
  throw new OAuthError({
    code: 'DISCOVERY_FAILED',
    message: `Could not discover the token endpoint of the enterprise IdP ${issuer.href} for MCP server '${serverName}'; set oauth.idp.tokenUrl.`,
    serverName,
    url: issuer.href,
  });
}

/**
 * Exchanges the user's ID token for an ID-JAG at the enterprise IdP (RFC 8693 token exchange, as
 * the MCP Enterprise-Managed Authorization extension profiles it): `audience` is the MCP
 * authorization server's issuer and `resource` the MCP server. The IdP client authenticates with
 * `client_secret_post` when it has a secret, else sends only its `client_id`.
 *
 * @throws OAuthError `INVALID_CONFIG` without an ID token; `ID_JAG_EXCHANGE_FAILED` when the IdP refuses.
 */
export async function requestIdJag(options: RequestIdJagOptions): Promise<string> {
  const { idp, serverName } = options;
  const idToken = typeof options.idToken === 'function' ? await options.idToken() : options.idToken;
  if (!idToken) {
    throw new OAuthError({
      code: 'INVALID_CONFIG',
      message: `MCP server '${serverName}' uses enterprise-managed authorization but no ID token from the enterprise IdP is available; sign in to the IdP first (the host passes the ID token, or set oauth.idp.idToken).`,
      serverName,
    });
  }
  const tokenEndpoint = await idpTokenEndpoint(options);
  const result = await requestToken({
    serverName,
    tokenEndpoint,
    client: {
      clientId: idp.clientId,
      source: 'configured',
      ...(idp.clientSecret
        ? { clientSecret: idp.clientSecret, tokenEndpointAuthMethod: 'client_secret_post' }
        : { tokenEndpointAuthMethod: 'none' }),
    },
    params: {
      grant_type: TOKEN_EXCHANGE_GRANT_TYPE,
      requested_token_type: ID_JAG_TOKEN_TYPE,
      audience: options.audience,
      resource: options.resource,
      scope: options.scope,
      subject_token: idToken,
      subject_token_type: ID_TOKEN_TYPE,
    },
    failureCode: 'ID_JAG_EXCHANGE_FAILED',
    what: 'exchange the ID token for an ID-JAG at the enterprise IdP',
    fetch: options.fetch,
    now: options.now,
  });
  return result.accessToken;
}
