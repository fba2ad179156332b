import type { AuthorizationServerInfo } from './discover-authorization-server.js';
import { OAuthError } from './oauth-error.js';
import type { PkceParameters } from './pkce.js';

/** Options of {@link buildAuthorizationUrl}. */
export interface BuildAuthorizationUrlOptions {
  /** The authorization endpoint; its own query and fragment are kept. */
  authorizationEndpoint: string;
  /** The client id. */
  clientId: string;
  /** The redirect URI. */
  redirectUri: string;
  /** PKCE pair and state. */
  pkce: PkceParameters;
  /** Scope to request, if any. */
  scope?: string;
  /** RFC 8707 resource indicator. */
  resource: string;
  /** Audiences (`audience` parameter, space-separated), if any. */
  audiences?: readonly string[];
}

/** Builds the authorization request URL (authorization code flow, PKCE S256, RFC 8707 `resource`). */
export function buildAuthorizationUrl(options: BuildAuthorizationUrlOptions): string {
  const url = new URL(options.authorizationEndpoint);
  const params = url.searchParams;
  params.set('response_type', 'code');
  params.set('client_id', options.clientId);
  params.set('redirect_uri', options.redirectUri);
  params.set('state', options.pkce.state);
  params.set('code_challenge', options.pkce.codeChallenge);
  params.set('code_challenge_method', 'S256');
  if (options.scope) params.set('scope', options.scope);
  if (options.audiences && options.audiences.length > 0) params.set('audience', options.audiences.join(' '));
  params.set('resource', options.resource);
  return url.href;
}

/**
 * Refuses an authorization server that does not advertise PKCE S256 (MCP 2025-11-25). When the
 * field is absent, `allowMissingPkceSupport` lets the flow continue (S256 is still sent).
 */
export function assertPkceSupport(options: {
  serverName: string;
  authorizationServer: AuthorizationServerInfo;
  allowMissingPkceSupport?: boolean;
}): void {
  const methods = options.authorizationServer.codeChallengeMethodsSupported;
  if (methods === undefined && options.allowMissingPkceSupport) return;
  if (methods?.includes('S256')) return;
  const issue =
    methods === undefined
      ? 'does not advertise code_challenge_methods_supported'
      : `supports only ${methods.join(', ') || 'no'} PKCE methods`;
  throw new OAuthError({
    code: 'PKCE_UNSUPPORTED',
    message: `The authorization server of MCP server '${options.serverName}' (${options.authorizationServer.issuer}) ${issue}, so PKCE S256 cannot be verified.${methods === undefined ? ' If you trust it, set "oauth.allowMissingPkceSupport": true in the server entry.' : ''}`,
    serverName: options.serverName,
  });
}
