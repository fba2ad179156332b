import { describeInvalidClientMetadataUrl, type McpServerConfig } from '@toolhost/config';
import { assertPkceSupport, buildAuthorizationUrl } from './build-authorization-url.js';
import { loadClientAssertionKey } from './client-assertion.js';
import { DEFAULT_REDIRECT_URI, startCallbackServer } from './callback-server.js';
import { discoverAuthorizationServer } from './discover-authorization-server.js';
import { createDpopSession, generateDpopKey, planDpop } from './dpop.js';
import { createPinnedFetch, type FetchFunction } from './guarded-fetch.js';
import { InMemoryTokenStore } from './in-memory-token-store.js';
import { OAuthError } from './oauth-error.js';
import type { OAuthWarningListener } from './oauth-warning.js';
import { assertBrowserSafeUrl, openBrowserSafely, type OpenBrowser } from './open-browser.js';
import { createPkceParameters } from './pkce.js';
import { probeChallenge } from './probe-challenge.js';
import { requestTokenWithoutBrowser } from './non-interactive-grants.js';
import { planClientIdentity, registerClient, type ApplicationType } from './register-client.js';
import { selectScopes } from './select-scopes.js';
import { requestToken, selectTokenEndpointAuthMethod } from './token-endpoint.js';
import type { StoredClient, StoredDpopKey, StoredOAuthCredentials, StoredToken, TokenStore } from './token-store.js';
import { createUrlGuard, type HostResolver } from './url-guard.js';
import type { BearerChallenge } from './www-authenticate.js';

/** Options of {@link authenticate}. */
export interface AuthenticateOptions {
  /** Opens the authorization URL. @default openBrowserSafely (xdg-open/open/rundll32, no shell) */
  openBrowser?: OpenBrowser;
  /** Called with the authorization URL before the browser opens, so the host can show it. */
  onAuthorizationUrl?: (url: string) => void;
  /**
   * Called with what the user should know but does not stop the sign-in: the authorization
   * server, or the authorization page the browser is sent to, is on a host name that may imitate
   * another site (`LOOK_ALIKE_HOST`: punycode, or letters of several scripts in one label; the
   * warning names the decoded host). Reported before the browser opens. @default ignored
   */
  onWarning?: OAuthWarningListener;
  /** Where the token is stored. @default a new InMemoryTokenStore */
  tokenStore?: TokenStore;
  /** The challenge of the 401/403 that made authentication necessary; probed from the server when absent. */
  challenge?: BearerChallenge;
  /**
   * Client ID Metadata Document URL of this host (https, with a path, without `.`/`..` segments,
   * a fragment or credentials), used when the server supports it. An invalid one (here or in the
   * entry) fails the sign-in with `INVALID_CONFIG` naming it, before anything is fetched.
   * @default the entry's `oauth.clientMetadataUrl`
   */
  clientMetadataUrl?: string;
  /**
   * The user's ID token from the enterprise IdP, for `oauth.grantType: 'enterprise_managed'`
   * (or a function returning it, called only when needed). @default the entry's `oauth.idp.idToken`
   */
  idpIdToken?: string | (() => Promise<string>);
  /** Environment read for `oauth.assertionEnv` (`grantType: 'jwt_bearer'`). @default process.env */
  env?: Readonly<Record<string, string | undefined>>;
  /** `client_name` for dynamic registration. @default 'toolhost' */
  clientName?: string;
  /**
   * OpenID Connect `application_type` for dynamic registration. @default `native` for a loopback
   * redirect URI (a desktop or CLI host, the usual case), `web` for a redirect URI on a remote host
   */
  applicationType?: ApplicationType;
  /** Overrides `oauth.allowPrivateNetwork` of the entry. */
  allowPrivateNetwork?: boolean;
  /**
   * Host resolver used by the URL guard; requests to URLs it checked connect to the addresses it
   * returned. @default dns.lookup
   */
  resolveHost?: HostResolver;
  /**
   * HTTP client. Replaces the default, which connects to the addresses the URL guard vetted for
   * the URLs it checked (no second DNS lookup, so no DNS rebinding; see {@link createPinnedFetch}).
   * A custom `fetch` resolves host names itself: the guard still refuses URLs that resolve to
   * private addresses, but cannot pin the request's connection to the vetted ones.
   * @default createPinnedFetch(guard), which uses globalThis.fetch for URLs the guard did not check
   */
  fetch?: FetchFunction;
  /** How long to wait for the browser, in milliseconds. @default 300000 */
  timeoutMs?: number;
  /** Cancels the flow. */
  signal?: AbortSignal;
  /** Clock, in milliseconds since the epoch. @default Date.now */
  now?: () => number;
}

/** The URL of a remote server entry, or an `INVALID_CONFIG` error. */
export function serverUrlOf(serverName: string, config: McpServerConfig): string {
  const url = config.httpUrl ?? config.url;
  if (!url) {
    throw new OAuthError({
      code: 'INVALID_CONFIG',
      message: `MCP server '${serverName}' has no url or httpUrl; OAuth applies to remote servers only.`,
      serverName,
    });
  }
  return url;
}

/**
 * Refuses a Client ID Metadata Document URL that could not be used (`INVALID_CONFIG`), instead of
 * falling back to dynamic registration without a word. The URL is not quoted: it may hold a password.
 */
function assertClientMetadataUrl(serverName: string, url: string | undefined, fromOption: boolean): void {
  const problem = url === undefined ? undefined : describeInvalidClientMetadataUrl(url);
  if (problem === undefined) return;
  const field = fromOption
    ? `The clientMetadataUrl option of the sign-in to MCP server '${serverName}'`
    : `oauth.clientMetadataUrl of MCP server '${serverName}'`;
  throw new OAuthError({
    code: 'INVALID_CONFIG',
    message: `${field} is not a Client ID Metadata Document URL: ${problem}. It must be an https URL with a path, without "." or ".." segments, a fragment, or a user name or password (e.g. "https://example.com/oauth/client.json"); fix it, or remove it to use dynamic client registration.`,
    serverName,
  });
}

/**
 * Runs the OAuth flow for one server entry, which the user must have asked for
 * (`toolhost mcp auth <name>`, or an entry with `oauth.enabled`): discovery, then by
 * `oauth.grantType` either the browser flow (client identity, loopback callback, browser, code
 * exchange) or a grant without a browser (`client_credentials`, `enterprise_managed`,
 * `jwt_bearer`).
 * Stores and returns the credentials.
 *
 * With DPoP (`oauth.dpop`, see {@link planDpop}) the token request carries a proof of the client
 * registration's key pair (kept from the previous entry of the same client, else generated), the
 * authorization server's `use_dpop_nonce` is answered once, and the key is stored with the token.
 *
 * @example
 * ```ts
 * await authenticate('github', settings.mcpServers.github, { tokenStore: new FileTokenStore(), openBrowser });
 * ```
 */
export async function authenticate(
  serverName: string,
  config: McpServerConfig,
  options: AuthenticateOptions = {},
): Promise<StoredOAuthCredentials> {
  const serverUrl = serverUrlOf(serverName, config);
  const oauth = config.oauth ?? {};
  const grantType = oauth.grantType ?? 'authorization_code';
  const now = options.now ?? Date.now;
  const tokenStore = options.tokenStore ?? new InMemoryTokenStore();
  const clientMetadataUrl = options.clientMetadataUrl ?? oauth.clientMetadataUrl;
  if (grantType === 'authorization_code') assertClientMetadataUrl(serverName, clientMetadataUrl, options.clientMetadataUrl !== undefined);
  const guard = createUrlGuard({
    serverName,
    mcpServerUrl: serverUrl,
    allowPrivateNetwork: options.allowPrivateNetwork ?? oauth.allowPrivateNetwork,
    resolveHost: options.resolveHost,
  });
  // Requests to URLs the guard checked connect to the addresses it vetted (no DNS rebinding).
  const fetchFn: FetchFunction = options.fetch ?? createPinnedFetch(guard);
  const assertionKey = await loadClientAssertionKey(serverName, oauth);
  const challenge =
    options.challenge ?? (await probeChallenge({ serverUrl, fetch: fetchFn, headers: config.headers, signal: options.signal }));
  const discovery = await discoverAuthorizationServer({
    serverName,
    serverUrl,
    config: oauth,
    challenge,
    guard,
    fetch: fetchFn,
    ...(options.onWarning ? { onWarning: options.onWarning } : {}),
  });
  const { authorizationServer } = discovery;
  const previous = await tokenStore.get(serverName, authorizationServer.issuer);
  const scope = selectScopes({
    configScopes: oauth.scopes,
    challenge,
    resourceScopesSupported: discovery.resourceScopesSupported,
    previousScope: previous?.token.scope,
  });
  const dpopPlan = planDpop({
    serverName,
    setting: oauth.dpop,
    authorizationServerAlgs: authorizationServer.dpopSigningAlgValuesSupported,
    resourceRequiresDpop: discovery.resourceRequiresDpop,
    challenge,
  });
  // One key pair per client registration: the previous entry's key while the client is the same one.
  const dpopKeyFor = async (client: StoredClient): Promise<StoredDpopKey | undefined> => {
    if (!dpopPlan) return undefined;
    const kept = previous?.dpopKey;
    if (kept && previous.client.clientId === client.clientId && kept.alg === dpopPlan.alg) return kept;
    return generateDpopKey(dpopPlan.alg);
  };
  const store = async (client: StoredClient, token: StoredToken, dpopKey: StoredDpopKey | undefined): Promise<StoredOAuthCredentials> => {
    if (token.scope === undefined && scope) token.scope = scope;
    const credentials: StoredOAuthCredentials = {
      serverName,
      issuer: authorizationServer.issuer,
      mcpServerUrl: serverUrl,
      resource: discovery.resource,
      tokenEndpoint: authorizationServer.tokenEndpoint,
      client: {
        ...client,
        tokenEndpointAuthMethod: selectTokenEndpointAuthMethod(client, authorizationServer.tokenEndpointAuthMethodsSupported),
      },
      token,
      updatedAt: now(),
    };
    if (grantType !== 'authorization_code') credentials.grantType = grantType;
    if (dpopKey) credentials.dpopKey = dpopKey;
    await tokenStore.set(credentials);
    return credentials;
  };
  const configuredAuthMethod = oauth.tokenEndpointAuthMethod ?? (assertionKey ? 'private_key_jwt' : undefined);
  const clientAssertion = assertionKey
    ? { key: assertionKey, audience: authorizationServer.metadataIssuer ?? authorizationServer.issuer }
    : undefined;

  if (grantType !== 'authorization_code') {
    // Workload identity needs no client: the workload identity token is the credential.
    if (!oauth.clientId && (grantType !== 'jwt_bearer' || oauth.clientSecret !== undefined || assertionKey)) {
      throw new OAuthError({
        code: 'INVALID_CONFIG',
        message:
          grantType === 'jwt_bearer'
            ? `MCP server '${serverName}' has a client secret or private key for grantType "jwt_bearer" but no oauth.clientId to authenticate as; set oauth.clientId, or remove the secret or key.`
            : `MCP server '${serverName}' uses grantType "${grantType}", which needs a pre-registered oauth.clientId.`,
        serverName,
      });
    }
    if (grantType === 'client_credentials' && !oauth.clientSecret && !assertionKey) {
      throw new OAuthError({
        code: 'INVALID_CONFIG',
        message: `MCP server '${serverName}' uses the client credentials grant but has neither oauth.clientSecret nor a private key (oauth.privateKey or oauth.privateKeyFile).`,
        serverName,
      });
    }
    const client: StoredClient = {
      clientId: oauth.clientId ?? '',
      source: 'configured',
      ...(oauth.clientSecret ? { clientSecret: oauth.clientSecret } : {}),
      ...(configuredAuthMethod ? { tokenEndpointAuthMethod: configuredAuthMethod } : {}),
    };
    const dpopKey = await dpopKeyFor(client);
    const token = await requestTokenWithoutBrowser({
      ...(dpopKey ? { dpop: await createDpopSession(dpopKey, serverName) } : {}),
      serverName,
      oauth,
      authorizationServer,
      client,
      ...(assertionKey ? { assertionKey } : {}),
      resource: discovery.resource,
      ...(scope ? { scope } : {}),
      ...(options.idpIdToken !== undefined ? { idpIdToken: options.idpIdToken } : {}),
      ...(options.env ? { env: options.env } : {}),
      fetch: fetchFn,
      now,
    });
    // A workload renews by repeating the grant with its current identity token, never with a
    // refresh token: one would outlive the token the platform may have revoked or rotated.
    if (grantType === 'jwt_bearer') delete token.refreshToken;
    return store(client, token, dpopKey);
  }

  const authorizationEndpoint = authorizationServer.authorizationEndpoint ?? '';
  assertBrowserSafeUrl(authorizationEndpoint, { serverName, what: 'authorization_endpoint' });
  // A 2025-03-26 server without metadata cannot advertise PKCE; that spec requires PKCE of every
  // authorization server, and S256 is sent regardless.
  assertPkceSupport({
    serverName,
    authorizationServer,
    allowMissingPkceSupport: oauth.allowMissingPkceSupport === true || authorizationServer.usesDefaultEndpoints === true,
  });
  const plan = planClientIdentity({
    serverName,
    clientId: oauth.clientId,
    clientSecret: oauth.clientSecret,
    clientMetadataUrl,
    authorizationServer,
  });
  if (plan.kind === 'configured' && configuredAuthMethod) plan.client.tokenEndpointAuthMethod = configuredAuthMethod;
  const pkce = await createPkceParameters();
  const callback = await startCallbackServer({
    redirectUri: oauth.redirectUri ?? DEFAULT_REDIRECT_URI,
    expectedState: pkce.state,
    allowFallbackPort: !oauth.redirectUri && plan.kind === 'dynamic-registration',
    timeoutMs: options.timeoutMs,
    signal: options.signal,
    serverName,
    expectedIssuer: authorizationServer.metadataIssuer,
    requireIssuer: authorizationServer.issParameterSupported,
  });
  try {
    let client: StoredClient;
    if (plan.kind !== 'dynamic-registration') client = plan.client;
    else if (previous?.client.source === 'dynamic-registration' && previous.client.redirectUri === callback.redirectUri)
      client = previous.client;
    else {
      client = await registerClient({
        serverName,
        registrationEndpoint: plan.registrationEndpoint,
        redirectUri: callback.redirectUri,
        clientName: options.clientName ?? 'toolhost',
        ...(options.applicationType ? { applicationType: options.applicationType } : {}),
        scope,
        guard,
        fetch: fetchFn,
      });
    }
    const authorizationUrl = buildAuthorizationUrl({
      authorizationEndpoint,
      clientId: client.clientId,
      redirectUri: callback.redirectUri,
      pkce,
      scope,
      resource: discovery.resource,
      audiences: oauth.audiences,
    });
    assertBrowserSafeUrl(authorizationUrl, { serverName });
    options.onAuthorizationUrl?.(authorizationUrl);
    const codePromise = callback.waitForCode();
    try {
      await (options.openBrowser ?? openBrowserSafely)(authorizationUrl);
    } catch (error) {
      // Without a way to show the URL, the user cannot continue: give up instead of waiting 5 minutes.
      if (!options.onAuthorizationUrl) {
        throw OAuthError.isInstance(error)
          ? error
          : new OAuthError({
              code: 'BROWSER_OPEN_FAILED',
              message: `Could not open a browser for MCP server '${serverName}': ${(error as Error).message}`,
              serverName,
              cause: error,
            });
      }
    }
    const code = await codePromise;
    const dpopKey = await dpopKeyFor(client);
    const token = await requestToken({
      ...(dpopKey ? { dpop: await createDpopSession(dpopKey, serverName) } : {}),
      serverName,
      tokenEndpoint: authorizationServer.tokenEndpoint,
      client,
      authMethodsSupported: authorizationServer.tokenEndpointAuthMethodsSupported,
      params: {
        grant_type: 'authorization_code',
        code,
        redirect_uri: callback.redirectUri,
        code_verifier: pkce.codeVerifier,
        resource: discovery.resource,
        audience: oauth.audiences?.join(' ') || undefined,
      },
      failureCode: 'TOKEN_EXCHANGE_FAILED',
      ...(clientAssertion ? { clientAssertion } : {}),
      fetch: fetchFn,
      now,
    });
    return await store(client, token, dpopKey);
  } finally {
    await callback.close();
  }
}
