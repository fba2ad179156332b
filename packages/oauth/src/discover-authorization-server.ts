import type { McpOAuthConfig } from '@toolhost/config';
import { escapeControlText, maskUrl } from '@toolhost/contract';
import { guardedFetch, readJsonObject, type FetchFunction } from './guarded-fetch.js';
import { assertMetadataIssuer, type ExpectedIssuerSource } from './issuer.js';
import { OAuthError } from './oauth-error.js';
import { createLookAlikeHostCheck, type OAuthWarningListener } from './oauth-warning.js';
import type { UrlGuard } from './url-guard.js';
import { parseSafeHttpUrl } from './url-guard.js';
import type { BearerChallenge } from './www-authenticate.js';
import {
  authorizationServerMetadataUrls,
  canonicalResourceUri,
  protectedResourceMetadataUrls,
  resourceMatchesServer,
} from './well-known-urls.js';

/** The fields of authorization-server metadata (RFC 8414 / OpenID discovery) this package uses. */
export interface AuthorizationServerInfo {
  /**
   * The metadata's `issuer` (checked to equal the issuer it was discovered for), or, when no
   * metadata exists, the configured `oauth.issuer` or the URL the endpoints were derived from.
   * Stored credentials are bound to it.
   */
  issuer: string;
  /** Where the user authorizes the client; may be absent for the grants that need no browser. */
  authorizationEndpoint?: string;
  /** Where codes and refresh tokens are exchanged. */
  tokenEndpoint: string;
  /** RFC 7591 dynamic client registration endpoint. */
  registrationEndpoint?: string;
  /** `scopes_supported`. */
  scopesSupported?: string[];
  /** `code_challenge_methods_supported`; `undefined` when the server does not advertise it. */
  codeChallengeMethodsSupported?: string[];
  /** `token_endpoint_auth_methods_supported`. */
  tokenEndpointAuthMethodsSupported?: string[];
  /** `grant_types_supported`, when advertised. */
  grantTypesSupported?: string[];
  /**
   * True when no metadata exists and the 2025-03-26 default endpoints (`/authorize`, `/token`,
   * `/register` at the MCP server's origin) are used.
   */
  usesDefaultEndpoints?: boolean;
  /** `client_id_metadata_document_supported` (SEP-991). */
  clientIdMetadataDocumentSupported: boolean;
  /** The metadata's own `issuer`, when it has one: the value an RFC 9207 `iss` must equal. */
  metadataIssuer?: string;
  /** `authorization_response_iss_parameter_supported` (RFC 9207). */
  issParameterSupported?: boolean;
  /** `dpop_signing_alg_values_supported` (RFC 9449 §5.1): the server issues DPoP-bound tokens. */
  dpopSigningAlgValuesSupported?: string[];
}

/** The result of discovery for one MCP server. */
export interface DiscoveryResult {
  /** Where the protected-resource metadata was found, if it was. */
  resourceMetadataUrl?: string;
  /** `scopes_supported` of the protected-resource metadata. */
  resourceScopesSupported?: string[];
  /** The authorization server that was used (the first of `authorization_servers`, or a fallback). */
  authorizationServerUrl: string;
  /** Every entry of the protected-resource metadata's `authorization_servers`, when it has them. */
  authorizationServers?: string[];
  /** Its metadata, every endpoint checked by the URL guard. */
  authorizationServer: AuthorizationServerInfo;
  /** The RFC 8707 resource indicator to send: the metadata's `resource`, else the canonical server URL. */
  resource: string;
  /** `dpop_bound_access_tokens_required` of the protected-resource metadata (RFC 9728): the server accepts DPoP-bound tokens only. */
  resourceRequiresDpop?: boolean;
}

/** Options of {@link discoverAuthorizationServer}. */
export interface DiscoverAuthorizationServerOptions {
  /** Name of the server entry. */
  serverName: string;
  /** URL of the MCP server. */
  serverUrl: string;
  /** The `oauth` block of the server entry. */
  config?: McpOAuthConfig;
  /** The challenge of the 401/403 that started the flow, if any. */
  challenge?: BearerChallenge;
  /** Checks every learned URL. */
  guard: UrlGuard;
  /**
   * HTTP client. Pass `createPinnedFetch(guard)` so that learned URLs are fetched from the
   * addresses the guard vetted; another `fetch` resolves their host names again (DNS rebinding).
   */
  fetch: FetchFunction;
  /**
   * Told when the authorization server (before its metadata is fetched) or its authorization page
   * is on a host name that may imitate another (`LOOK_ALIKE_HOST`, see `OAuthWarning`).
   */
  onWarning?: OAuthWarningListener;
}

const DISCOVERY_HEADERS = { accept: 'application/json', 'mcp-protocol-version': '2025-11-25' };

function stringArray(value: unknown): string[] | undefined {
  return Array.isArray(value) && value.every((v) => typeof v === 'string') ? (value as string[]) : undefined;
}

async function fetchFirstJson(
  candidates: URL[],
  options: DiscoverAuthorizationServerOptions,
  what: string,
): Promise<{ url: URL; body: Record<string, unknown> } | undefined> {
  for (const url of candidates) {
    try {
      const response = await guardedFetch({ url, fetch: options.fetch, guard: options.guard, what, init: { headers: DISCOVERY_HEADERS } });
      if (!response.ok) {
        await response.body?.cancel().catch(() => undefined);
        continue;
      }
      const body = await readJsonObject(response);
      if (body) return { url, body };
    } catch (error) {
      if (OAuthError.isInstance(error)) throw error;
      // A network failure at one candidate moves on to the next, as a 4xx does.
    }
  }
  return undefined;
}

async function readAuthorizationServer(
  body: Record<string, unknown> | undefined,
  discoveredFrom: string,
  options: DiscoverAuthorizationServerOptions,
  checkHost: ReturnType<typeof createLookAlikeHostCheck>,
): Promise<AuthorizationServerInfo> {
  const { config, guard, serverName } = options;
  const what = (field: string) => `${field} of the authorization server metadata`;
  const pick = async (field: string, configured: string | undefined): Promise<string | undefined> => {
    if (configured) return parseSafeHttpUrl(configured, { serverName, what: `configured ${field}` }).href;
    const raw = body?.[field];
    return raw === undefined ? undefined : (await guard.check(raw, what(field))).href;
  };
  const authorizationEndpoint = await pick('authorization_endpoint', config?.authorizationUrl);
  checkHost(authorizationEndpoint, 'authorization page');
  const tokenEndpoint = await pick('token_endpoint', config?.tokenUrl);
  const registrationEndpoint = await pick('registration_endpoint', config?.registrationUrl);
  const needsBrowser = (config?.grantType ?? 'authorization_code') === 'authorization_code';
  if ((needsBrowser && !authorizationEndpoint) || !tokenEndpoint) {
    throw new OAuthError({
      code: 'INVALID_METADATA',
      message: `The authorization server of MCP server '${serverName}' (${discoveredFrom}) has no authorization_endpoint or token_endpoint; set oauth.authorizationUrl and oauth.tokenUrl in the server entry.`,
      serverName,
      url: discoveredFrom,
    });
  }
  const responseTypes = stringArray(body?.response_types_supported);
  if (needsBrowser && responseTypes && !responseTypes.includes('code')) {
    throw new OAuthError({
      code: 'INVALID_METADATA',
      message: `The authorization server of MCP server '${serverName}' does not support the authorization code flow (response_types_supported: ${responseTypes.join(', ')}).`,
      serverName,
      url: discoveredFrom,
    });
  }
  // Fetched metadata always has a checked `issuer` (see assertMetadataIssuer); the others fall back.
  const issuer = typeof body?.issuer === 'string' ? body.issuer : (config?.issuer ?? discoveredFrom);
  const dpopAlgs = stringArray(body?.dpop_signing_alg_values_supported);
  return {
    ...(dpopAlgs ? { dpopSigningAlgValuesSupported: dpopAlgs } : {}),
    issuer,
    authorizationEndpoint,
    tokenEndpoint,
    registrationEndpoint,
    scopesSupported: stringArray(body?.scopes_supported),
    codeChallengeMethodsSupported: stringArray(body?.code_challenge_methods_supported),
    tokenEndpointAuthMethodsSupported: stringArray(body?.token_endpoint_auth_methods_supported),
    grantTypesSupported: stringArray(body?.grant_types_supported),
    clientIdMetadataDocumentSupported: body?.client_id_metadata_document_supported === true,
    metadataIssuer: typeof body?.issuer === 'string' ? body.issuer : undefined,
    issParameterSupported: body?.authorization_response_iss_parameter_supported === true,
  };
}

/**
 * Discovers how to authorize against an MCP server: protected-resource metadata (the
 * challenge's `resource_metadata`, else RFC 9728 path-inserted, else root), its `resource`
 * check, then authorization-server metadata in the 2025-11-25 order (RFC 8414, OpenID), whose
 * `issuer` must be identical to the issuer identifier it was discovered for (RFC 8414 §3.3; MCP
 * 2026-07-28), or it is refused before any request to its endpoints. Without protected-resource
 * metadata (MCP 2025-03-26) that issuer is the configured `oauth.issuer`, else the MCP server's
 * origin, which that revision makes the authorization server: metadata found there must name the
 * origin (one trailing slash aside), as the MCP TypeScript SDK requires on this path too.
 * A server that publishes neither (2025-03-26) gets the default endpoints `/authorize`,
 * `/token` and `/register` at its origin. Every URL learned on the way goes through the URL guard before it is fetched.
 * An authorization server or authorization page on a look-alike host name is reported to `onWarning`.
 *
 * @throws OAuthError `ISSUER_MISMATCH` for metadata naming another issuer (or none), `RESOURCE_MISMATCH`,
 * `UNSAFE_URL`, `DISCOVERY_FAILED`, `INVALID_METADATA`.
 */
export async function discoverAuthorizationServer(options: DiscoverAuthorizationServerOptions): Promise<DiscoveryResult> {
  const { serverName, serverUrl, config, challenge, guard } = options;
  const checkHost = createLookAlikeHostCheck(serverName, options.onWarning);
  const prmCandidates = protectedResourceMetadataUrls(serverUrl);
  if (challenge?.resourceMetadata) {
    prmCandidates.unshift(await guard.check(challenge.resourceMetadata, 'resource_metadata URL of the WWW-Authenticate header'));
  }
  const prm = await fetchFirstJson(prmCandidates, options, 'protected resource metadata URL');
  let resource = canonicalResourceUri(serverUrl);
  let authorizationServerUrl = config?.issuer ?? new URL(serverUrl).origin;
  // The issuer identifier the metadata URLs are built from, as given (RFC 8414 §3.3 compares to it).
  // Without protected-resource metadata naming one, that is the configured issuer or, as MCP
  // 2025-03-26 defines the authorization server, the MCP server's origin: the same rule as the
  // MCP TypeScript SDK's discoverOAuthServerInfo().
  let expectedIssuer = authorizationServerUrl;
  let expectedFrom: ExpectedIssuerSource = config?.issuer ? 'oauth.issuer' : 'server-origin';
  let authorizationServers: string[] | undefined;
  if (prm) {
    const declared = prm.body.resource;
    if (typeof declared !== 'string' || !resourceMatchesServer(declared, serverUrl)) {
      throw new OAuthError({
        code: 'RESOURCE_MISMATCH',
        // The server's value escaped and cut; the configured URL masked (its query may hold a token).
        message: `The protected resource metadata of MCP server '${serverName}' names resource ${escapeControlText(JSON.stringify(declared) ?? 'nothing', { maxLength: 300 })}, which does not match ${maskUrl(serverUrl)}. The server may be misconfigured or malicious; nothing was opened or stored.`,
        serverName,
        url: prm.url.href,
      });
    }
    resource = declared;
    const servers = stringArray(prm.body.authorization_servers);
    if (servers?.[0]) {
      authorizationServerUrl = (await guard.check(servers[0], 'authorization server URL')).href;
      expectedIssuer = servers[0];
      expectedFrom = 'authorization_servers';
      authorizationServers = servers;
    }
  }
  // Said before anything is fetched from it: the name is what the user can check.
  checkHost(authorizationServerUrl, 'authorization server');
  const asCandidates = authorizationServerMetadataUrls(authorizationServerUrl);
  const asMetadata = await fetchFirstJson(asCandidates, options, 'authorization server metadata URL');
  if (asMetadata && !sameOriginLegacyIssuer(expectedFrom, expectedIssuer, asMetadata.body.issuer)) {
    assertMetadataIssuer({ serverName, expectedIssuer, expectedFrom, received: asMetadata.body.issuer, metadataUrl: asMetadata.url.href });
  }
  if (!asMetadata && !prm && !config?.issuer) {
    // A 2025-03-26 server without any metadata: its own origin is the authorization server, with
    // the spec's default endpoints (configured endpoints still win).
    const origin = new URL(serverUrl).origin;
    const fallback = {
      authorization_endpoint: `${origin}/authorize`,
      token_endpoint: `${origin}/token`,
      registration_endpoint: `${origin}/register`,
    };
    const authorizationServer = await readAuthorizationServer(fallback, authorizationServerUrl, options, checkHost);
    authorizationServer.usesDefaultEndpoints = true;
    return { authorizationServerUrl, authorizationServer, resource };
  }
  if (!asMetadata && !(config?.authorizationUrl && config.tokenUrl)) {
    throw new OAuthError({
      code: 'DISCOVERY_FAILED',
      message: `Could not discover the OAuth configuration of MCP server '${serverName}': no authorization server metadata at ${asCandidates.map((u) => u.href).join(', ')}. Set oauth.authorizationUrl and oauth.tokenUrl in the server entry if the server does not publish metadata.`,
      serverName,
      url: authorizationServerUrl,
    });
  }
  const authorizationServer = await readAuthorizationServer(asMetadata?.body, authorizationServerUrl, options, checkHost);
  const result: DiscoveryResult = { authorizationServerUrl, authorizationServer, resource };
  if (authorizationServers) result.authorizationServers = authorizationServers;
  if (prm) {
    result.resourceMetadataUrl = prm.url.href;
    const scopes = stringArray(prm.body.scopes_supported);
    if (scopes) result.resourceScopesSupported = scopes;
    if (prm.body.dpop_bound_access_tokens_required === true) result.resourceRequiresDpop = true;
  }
  return result;
}

/**
 * MCP 2025-03-26 servers (no protected-resource metadata) that serve, at their origin's RFC 8414
 * location, metadata naming an issuer with a path on that same origin (`<origin>/oauth`): such a
 * server is its own authorization server, as that revision says, and an issuer it names on its own
 * origin claims nothing beyond what the server already controls. Accepted, with the named issuer;
 * an issuer on any other origin (or none) is still refused with `ISSUER_MISMATCH`. Authorization
 * servers named in protected-resource metadata or in `oauth.issuer` must match exactly.
 */
function sameOriginLegacyIssuer(expectedFrom: ExpectedIssuerSource, expectedIssuer: string, received: unknown): boolean {
  if (expectedFrom !== 'server-origin' || typeof received !== 'string') return false;
  try {
    const issuer = new URL(received);
    return issuer.origin === new URL(expectedIssuer).origin && issuer.search === '' && issuer.hash === '';
  } catch {
    return false;
  }
}
