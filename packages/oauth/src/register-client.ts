import { describeInvalidClientMetadataUrl } from '@toolhost/config';
import type { AuthorizationServerInfo } from './discover-authorization-server.js';
import { guardedFetch, readJsonObject, type FetchFunction } from './guarded-fetch.js';
import { escapeControlText } from '@toolhost/contract';
import { OAuthError } from './oauth-error.js';
import type { StoredClient } from './token-store.js';
import type { UrlGuard } from './url-guard.js';

/** How the client will identify itself; decided before the callback server starts. */
export type ClientIdentityPlan =
  | { kind: 'configured'; client: StoredClient }
  | { kind: 'metadata-document'; client: StoredClient }
  | { kind: 'dynamic-registration'; registrationEndpoint: string };

/**
 * True for a URL a Client ID Metadata Document may be served at: https, with a path, without `.`
 * or `..` segments, a fragment or credentials (see `describeInvalidClientMetadataUrl` of
 * `@toolhost/config`, which says why not).
 */
export function isClientMetadataDocumentUrl(value: string | undefined): value is string {
  return value !== undefined && describeInvalidClientMetadataUrl(value) === undefined;
}

/**
 * Chooses the client identity in the MCP 2025-11-25 priority order: a configured client id,
 * else a Client ID Metadata Document when the server supports it and the host has one,
 * else dynamic client registration, else an error.
 */
export function planClientIdentity(options: {
  serverName: string;
  clientId?: string;
  clientSecret?: string;
  clientMetadataUrl?: string;
  authorizationServer: AuthorizationServerInfo;
}): ClientIdentityPlan {
  const { authorizationServer, serverName } = options;
  if (options.clientId) {
    const client: StoredClient = { clientId: options.clientId, source: 'configured' };
    if (options.clientSecret) client.clientSecret = options.clientSecret;
    return { kind: 'configured', client };
  }
  if (authorizationServer.clientIdMetadataDocumentSupported && isClientMetadataDocumentUrl(options.clientMetadataUrl)) {
    return { kind: 'metadata-document', client: { clientId: options.clientMetadataUrl, source: 'metadata-document' } };
  }
  if (authorizationServer.registrationEndpoint) {
    return { kind: 'dynamic-registration', registrationEndpoint: authorizationServer.registrationEndpoint };
  }
  throw new OAuthError({
    code: 'NO_CLIENT_REGISTRATION',
    message: `MCP server '${serverName}' needs a client id: its authorization server (${authorizationServer.issuer}) supports neither dynamic client registration nor a client metadata document usable by this host. Register a client and set oauth.clientId (and oauth.clientSecret) in the server entry.`,
    serverName,
  });
}

/** Options of {@link registerClient}. */
export interface RegisterClientOptions {
  /** Name of the server entry. */
  serverName: string;
  /** The (already guard-checked) registration endpoint. */
  registrationEndpoint: string;
  /** The redirect URI to register. */
  redirectUri: string;
  /** `client_name`. */
  clientName: string;
  /** The scope the client will request. */
  scope?: string;
  /**
   * OpenID Connect `application_type` to register (MCP 2026-07-28 requires one). @default from
   * the redirect URI: `native` for a loopback or custom-scheme redirect (desktop and CLI hosts), else `web`
   */
  applicationType?: ApplicationType;
  /** Checks redirects of the registration request. */
  guard: UrlGuard;
  /** HTTP client; `createPinnedFetch(guard)` connects to the addresses the guard vetted. */
  fetch: FetchFunction;
}

/**
 * OpenID Connect `application_type` of a dynamically registered client: `native` for desktop,
 * mobile and CLI clients (loopback or custom-scheme redirect URIs), `web` for clients served from
 * a remote host. Other values are passed through for authorization servers that define them.
 */
export type ApplicationType = 'native' | 'web' | (string & {});

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * The `application_type` a client with this redirect URI registers as by default: `native` for a
 * loopback (`localhost`, `127.0.0.1`, `[::1]`) or custom-scheme redirect, `web` otherwise.
 */
export function applicationTypeFor(redirectUri: string): 'native' | 'web' {
  let url: URL;
  try {
    url = new URL(redirectUri);
  } catch {
    return 'web';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'native';
  return LOOPBACK_HOSTS.has(url.hostname) || url.hostname.startsWith('127.') ? 'native' : 'web';
}

/**
 * Registers a public client by RFC 7591 dynamic client registration, with the OpenID Connect
 * `application_type` MCP 2026-07-28 requires (`native` for the loopback redirect of a desktop or
 * CLI host unless `applicationType` says otherwise).
 */
export async function registerClient(options: RegisterClientOptions): Promise<StoredClient> {
  const { serverName } = options;
  const applicationType = options.applicationType ?? applicationTypeFor(options.redirectUri);
  const metadata: Record<string, unknown> = {
    client_name: options.clientName,
    redirect_uris: [options.redirectUri],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
    application_type: applicationType,
  };
  if (options.scope) metadata.scope = options.scope;
  let response: Response;
  try {
    response = await guardedFetch({
      url: new URL(options.registrationEndpoint),
      fetch: options.fetch,
      guard: options.guard,
      what: 'registration endpoint',
      init: { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body: JSON.stringify(metadata) },
    });
  } catch (error) {
    if (OAuthError.isInstance(error)) throw error;
    throw new OAuthError({
      code: 'REGISTRATION_FAILED',
      message: `Dynamic client registration for MCP server '${serverName}' failed: ${(error as Error).message}`,
      serverName,
      url: options.registrationEndpoint,
      cause: error,
    });
  }
  const body = await readJsonObject(response);
  if (!response.ok || typeof body?.client_id !== 'string') {
    const oauthError = typeof body?.error === 'string' ? body.error : undefined;
    const description =
      typeof body?.error_description === 'string' ? ` - ${escapeControlText(body.error_description, { maxLength: 300 })}` : '';
    // OIDC servers check redirect URIs against the application type; say what was sent.
    const redirectProblem =
      oauthError === 'invalid_redirect_uri' || oauthError === 'invalid_client_metadata'
        ? ` The client was registered as application_type "${applicationType}" with the redirect URI ${options.redirectUri}; if the authorization server needs another application type, pass applicationType, or set oauth.redirectUri to a redirect URI it accepts.`
        : '';
    throw new OAuthError({
      code: 'REGISTRATION_FAILED',
      message: `Dynamic client registration for MCP server '${serverName}' failed: ${oauthError === undefined ? `HTTP ${response.status}` : escapeControlText(oauthError, { maxLength: 100 })}${description}.${redirectProblem} ${redirectProblem ? 'Otherwise register' : 'Register'} a client by hand and set oauth.clientId.`,
      serverName,
      url: options.registrationEndpoint,
      oauthErrorCode: oauthError,
    });
  }
  const client: StoredClient = { clientId: body.client_id, source: 'dynamic-registration', redirectUri: options.redirectUri };
  if (typeof body.client_secret === 'string' && body.client_secret) client.clientSecret = body.client_secret;
  if (typeof body.token_endpoint_auth_method === 'string') client.tokenEndpointAuthMethod = body.token_endpoint_auth_method;
  return client;
}
