import {
  AuthorizationServerMismatchError,
  isDpopNonceChallenge,
  type DpopSession,
  type OAuthClientInformationContext,
  type OAuthClientMetadata,
  type OAuthClientProvider,
  type StoredOAuthClientInformation,
  type StoredOAuthTokens,
} from '@modelcontextprotocol/client';
import type { McpServerConfig } from '@toolhost/config';
import { authenticate, serverUrlOf, type AuthenticateOptions } from './authenticate.js';
import { DEFAULT_REDIRECT_URI } from './callback-server.js';
import { discoverAuthorizationServer, type DiscoveryResult } from './discover-authorization-server.js';
import { DpopSessionCache } from './dpop.js';
import { createPinnedFetch, type FetchFunction } from './guarded-fetch.js';
import { issuersMatch, oauthErrorFromSdk } from './issuer.js';
import { authCommandHint, OAuthError } from './oauth-error.js';
import type { OAuthWarningListener } from './oauth-warning.js';
import type { OpenBrowser } from './open-browser.js';
import { isTokenExpiring, refreshStoredToken } from './refresh-stored-token.js';
import { applicationTypeFor, type ApplicationType } from './register-client.js';
import { tokenLockName, type StoredOAuthCredentials, type TokenStore } from './token-store.js';
import { createUrlGuard, type HostResolver, type UrlGuard } from './url-guard.js';
import { canonicalResourceUri } from './well-known-urls.js';
import { parseWwwAuthenticate, type BearerChallenge } from './www-authenticate.js';

/** After a refresh failed without rejecting the credentials, how long a still-valid token is used before the next attempt (30 seconds). */
const REFRESH_RETRY_DELAY_MS = 30_000;

/** Failures of a migration that are about the metadata itself, reported even when nothing moved. */
const REFUSED_METADATA = new Set(['ISSUER_MISMATCH', 'RESOURCE_MISMATCH', 'UNSAFE_URL']);

/** True when a request body can be sent a second time. */
function isReplayable(body: RequestInit['body']): boolean {
  return body === undefined || body === null || typeof body === 'string' || body instanceof URLSearchParams || body instanceof ArrayBuffer;
}

/** Options of {@link StoredTokenOAuthProvider}. */
export interface StoredTokenOAuthProviderOptions {
  /** Name of the server entry. */
  serverName: string;
  /** The server entry. */
  config: McpServerConfig;
  /** Where `authenticate()` stored the token. */
  tokenStore: TokenStore;
  /**
   * HTTP client for the provider's own requests (refresh, renewal, migration; not the MCP
   * requests). Without it, URLs learned from the server during renewal and migration are fetched
   * from the addresses the URL guard vetted ({@link createPinnedFetch}), other requests with
   * `globalThis.fetch`; a custom `fetch` resolves host names itself, so that pinning does not apply to it.
   * @default createPinnedFetch(guard): the stored token endpoint (refresh) and learned URLs are
   * checked by the URL guard and connected to at the addresses it vetted
   */
  fetch?: FetchFunction;
  /** Host resolver of the URL guard (a seam for tests and custom resolvers). @default every address of `dns.lookup` */
  resolveHost?: HostResolver;
  /** Clock. @default Date.now */
  now?: () => number;
  /**
   * How many `insufficient_scope` step-ups for the same challenged scope this provider allows before
   * `STEP_UP_LIMIT` (counted for the provider's lifetime: a reconnect does not reset it). @default 2
   */
  maxStepUpAttempts?: number;
  /** The enterprise IdP's ID token, so that an `enterprise_managed` token can be renewed without the user. */
  idpIdToken?: string | (() => Promise<string>);
  /** Environment read for `oauth.assertionEnv` of a `jwt_bearer` entry, at every grant. @default process.env */
  env?: Readonly<Record<string, string | undefined>>;
  /**
   * The host's browser hook. Only an authorization-server migration uses it (the server's
   * protected-resource metadata names a new authorization server): the provider then signs in
   * with the new one by itself. Without it such a migration ends in `AUTH_REQUIRED`, as any
   * other sign-in does.
   */
  openBrowser?: OpenBrowser;
  /** Called with the authorization URL of a migration sign-in before the browser opens (see `openBrowser`). */
  onAuthorizationUrl?: (url: string) => void;
  /** Told about a look-alike authorization host during a migration sign-in (see `onWarning` of `authenticate`). */
  onWarning?: OAuthWarningListener;
  /** `application_type` of a client registered during a migration. @default `native` for a loopback redirect URI */
  applicationType?: ApplicationType;
  /**
   * Cancels a migration sign-in that is waiting for the browser (the host closing): the request
   * that started it then gets the server's 401, and `authRequiredError()` says the sign-in was cancelled.
   */
  signal?: AbortSignal;
  /**
   * The command that signs in, named in the messages of `AUTH_REQUIRED` and `REFRESH_FAILED`
   * (the server name is appended). @default 'toolhost mcp auth'
   */
  authCommand?: string;
}

/**
 * An SDK `OAuthClientProvider` backed by stored tokens. It hands the SDK the stored token
 * (refreshed 5 minutes before expiry; a refresh that fails for a transient reason keeps the
 * credentials, and the token is used while it is still valid) and never starts a browser flow
 * of its own: whenever the SDK would authorize (a 401, or a 403 `insufficient_scope`), it throws
 * `OAuthError` `AUTH_REQUIRED` naming the server and `toolhost mcp auth <name>`. The host then
 * decides whether to run `authenticate()` (with {@link StoredTokenOAuthProvider.lastChallenge}) and reconnect.
 *
 * Pass {@link StoredTokenOAuthProvider.wrapFetch} as the transport's `fetch` so the provider sees
 * the challenges' `scope` and `resource_metadata`, and handles an authorization-server
 * migration: when a 401 comes with protected-resource metadata naming another authorization
 * server than the one the stored credentials belong to, the provider deletes those credentials
 * (client registration and tokens; they are never sent to another server) and, once per pair of
 * servers, obtains new ones from the new server: by itself for `client_credentials`,
 * `enterprise_managed` and `jwt_bearer`, through the `openBrowser` hook for a browser sign-in (registering again
 * when the client was registered dynamically), then repeats the request. A pre-registered client
 * (`oauth.clientId`) is only used with the new server when `oauth.issuer` names it; otherwise the
 * provider reports `INVALID_CONFIG`.
 *
 * DPoP (RFC 9449): when the stored entry has a DPoP key ({@link StoredTokenOAuthProvider.dpop}),
 * refreshes prove possession of it, and the SDK transports present a `token_type: DPoP` token as
 * `Authorization: DPoP <token>` with a fresh proof per request (`htm`, `htu`, `iat`, `jti`, `ath`),
 * retrying a `use_dpop_nonce` 401 once with the server's nonce, which is remembered per server.
 */
export class StoredTokenOAuthProvider implements OAuthClientProvider {
  /** The challenge of the most recent 401/403 from the server, when `wrapFetch` was used. */
  lastChallenge: BearerChallenge | undefined;
  readonly #serverUrl: string;
  readonly #stepUps = new Map<string, number>();
  #refreshing: Promise<StoredOAuthCredentials> | undefined;
  #refreshRetryAt = 0;
  #hadToken = false;
  #migrating: Promise<StoredOAuthCredentials | undefined> | undefined;
  /** Migrations already attempted, as `old issuer -> new issuer`: each is tried once. */
  readonly #migrations = new Set<string>();
  /** Why the last migration could not complete; reported by `authRequiredError()` until a token is available again. */
  #migrationFailure: OAuthError | undefined;
  /** The signing session of the stored DPoP key (its nonces are remembered while the key stays). */
  readonly #dpopSessions = new DpopSessionCache();
  /** The entry whose token `tokens()` handed out last (the SDK asks `tokens()` before each request). */
  #handedOut: StoredOAuthCredentials | undefined;

  readonly #options: StoredTokenOAuthProviderOptions;

  /** Creates the provider; nothing is read until the SDK asks for tokens. */
  constructor(options: StoredTokenOAuthProviderOptions) {
    this.#options = options;
    this.#serverUrl = serverUrlOf(options.serverName, options.config);
  }

  /** The redirect URI `authenticate()` would use (informational: this provider never redirects). */
  get redirectUrl(): string {
    return this.#options.config.oauth?.redirectUri ?? DEFAULT_REDIRECT_URI;
  }

  /** Client metadata (informational: the SDK never registers a client through this provider). */
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'toolhost (stored OAuth token)',
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      application_type: this.#options.applicationType ?? applicationTypeFor(this.redirectUrl),
    };
  }

  /** The stored entry of this server, ignored when it was issued for another server URL (the entry's URL changed). */
  async #stored(): Promise<StoredOAuthCredentials | undefined> {
    const stored = await this.#options.tokenStore.get(this.#options.serverName);
    if (!stored) return undefined;
    // An entry that records no server URL (one Gemini CLI or Qwen Code wrote) belongs to the server of its name, as for them.
    if (!stored.mcpServerUrl) return stored;
    return canonicalResourceUri(stored.mcpServerUrl) === canonicalResourceUri(this.#serverUrl) ? stored : undefined;
  }

  #guard(): UrlGuard {
    const oauth = this.#options.config.oauth ?? {};
    return createUrlGuard({
      serverName: this.#options.serverName,
      mcpServerUrl: this.#serverUrl,
      allowPrivateNetwork: oauth.allowPrivateNetwork,
      ...(this.#options.resolveHost ? { resolveHost: this.#options.resolveHost } : {}),
    });
  }

  /**
   * The fetch of a refresh: the custom one, or one that connects to the stored token endpoint at
   * the addresses the URL guard vets now (the name may resolve elsewhere than at sign-in).
   */
  async #refreshFetch(tokenEndpoint: string): Promise<FetchFunction> {
    if (this.#options.fetch) return this.#options.fetch;
    const guard = this.#guard();
    await guard.check(tokenEndpoint, 'stored token endpoint');
    return createPinnedFetch(guard);
  }

  #now(): number {
    return (this.#options.now ?? Date.now)();
  }

  /**
   * The stored client registration, if any, stamped with the issuer it belongs to. Given the
   * SDK's `ctx.issuer`, a registration of another authorization server is never returned.
   */
  async clientInformation(ctx?: OAuthClientInformationContext): Promise<StoredOAuthClientInformation | undefined> {
    const stored = await this.#stored();
    if (!stored || (ctx && !issuersMatch(stored.issuer, ctx.issuer))) return undefined;
    return stored.client.clientSecret
      ? { client_id: stored.client.clientId, client_secret: stored.client.clientSecret, issuer: stored.issuer }
      : { client_id: stored.client.clientId, issuer: stored.issuer };
  }

  /** True when a new token can be obtained without the user (client credentials, workload identity, or enterprise-managed with an ID token). */
  #canRenewWithoutUser(): boolean {
    const oauth = this.#options.config.oauth;
    if (oauth?.grantType === 'client_credentials' || oauth?.grantType === 'jwt_bearer') return true;
    return oauth?.grantType === 'enterprise_managed' && (this.#options.idpIdToken !== undefined || oauth.idp?.idToken !== undefined);
  }

  /**
   * Runs `authenticate()` for the entry: the grant of a browserless entry (see
   * {@link canRenewWithoutUser}), or, during a migration, a browser sign-in through `openBrowser`.
   */
  #authenticate(
    extra: Pick<AuthenticateOptions, 'challenge' | 'openBrowser' | 'onAuthorizationUrl' | 'applicationType' | 'signal'> = {},
  ): Promise<StoredOAuthCredentials> {
    const { serverName, config, tokenStore } = this.#options;
    return authenticate(serverName, config, {
      tokenStore,
      ...(this.#options.fetch ? { fetch: this.#options.fetch } : {}),
      ...(this.#options.now ? { now: this.#options.now } : {}),
      ...(this.#options.idpIdToken !== undefined ? { idpIdToken: this.#options.idpIdToken } : {}),
      ...(this.#options.env ? { env: this.#options.env } : {}),
      ...(this.#options.resolveHost ? { resolveHost: this.#options.resolveHost } : {}),
      ...(this.#options.onWarning ? { onWarning: this.#options.onWarning } : {}),
      ...extra,
    });
  }

  /**
   * A new token from the grant of a browserless entry (`client_credentials`, `jwt_bearer`,
   * `enterprise_managed` with an ID token). With a store that has `withLock`, the grant runs under
   * the entry's lock, as a refresh does: the entry is read again first, and a token that another
   * process obtained meanwhile (not expiring) is used instead of asking for another.
   */
  #renew(stored: StoredOAuthCredentials | undefined): Promise<StoredOAuthCredentials> {
    const { tokenStore, serverName } = this.#options;
    if (!tokenStore.withLock) return this.#authenticate();
    const issuer = stored?.issuer ?? this.#options.config.oauth?.issuer ?? '';
    return tokenStore.withLock(tokenLockName(serverName, issuer), async () => {
      const current = await this.#stored();
      const renewedElsewhere = current !== undefined && current.token.accessToken !== stored?.token.accessToken;
      if (renewedElsewhere && !isTokenExpiring(current.token, this.#now())) return current;
      return this.#authenticate();
    });
  }

  /**
   * The stored credentials after a refresh when the token expires within 5 minutes. When the
   * refresh fails without the authorization server rejecting the credentials (network error,
   * timeout, 5xx), the credentials stay stored and a token that has not expired yet is still
   * used (the refresh is tried again 30 seconds later); an expired one gives `REFRESH_FAILED`.
   */
  async #refreshed(stored: StoredOAuthCredentials): Promise<StoredOAuthCredentials> {
    const now = this.#now();
    const { expiresAt, refreshToken } = stored.token;
    const stillValid = expiresAt !== undefined && now < expiresAt;
    if (stillValid && (!refreshToken || now < this.#refreshRetryAt)) return stored;
    this.#refreshing ??= this.#refreshFetch(stored.tokenEndpoint)
      .then(async (fetch) =>
        refreshStoredToken({
          ...(stored.dpopKey ? { dpop: await this.#dpopSessions.get(stored.dpopKey, stored.serverName) } : {}),
          credentials: stored,
          tokenStore: this.#options.tokenStore,
          fetch,
          now: () => this.#now(),
          ...(this.#options.authCommand !== undefined ? { authCommand: this.#options.authCommand } : {}),
        }),
      )
      .finally(() => (this.#refreshing = undefined));
    try {
      const refreshed = await this.#refreshing;
      this.#refreshRetryAt = 0;
      return refreshed;
    } catch (error) {
      const kept = stillValid && (await this.#options.tokenStore.get(stored.serverName, stored.issuer)) !== undefined;
      if (!kept) throw error;
      this.#refreshRetryAt = now + REFRESH_RETRY_DELAY_MS;
      return stored;
    }
  }

  /**
   * The stored token, stamped with the issuer of the authorization server it came from, and
   * refreshed first when it expires within 5 minutes (see the class); `undefined` when there is
   * none, or when the SDK's `ctx.issuer` names another authorization server. For
   * `client_credentials` entries (and `enterprise_managed` ones with an ID token) a missing or
   * expiring token without a refresh token is obtained again, since no user is involved; for
   * `jwt_bearer` (workload identity) a missing or expiring token is always obtained again with the
   * workload identity token as it is now (re-read from its file or variable), never refreshed.
   *
   * @throws OAuthError `REFRESH_FAILED` when an expired token cannot be refreshed; `INVALID_CONFIG`
   * after a migration refused the entry's pre-registered client.
   */
  async tokens(ctx?: OAuthClientInformationContext): Promise<StoredOAuthTokens | undefined> {
    // A pre-registered client that belongs to another authorization server is not renewed here either.
    if (this.#migrationFailure?.code === 'INVALID_CONFIG') throw this.#migrationFailure;
    let stored = await this.#stored();
    let renewed = false;
    const regrant = this.#options.config.oauth?.grantType === 'jwt_bearer' || !stored?.token.refreshToken;
    if ((!stored || (isTokenExpiring(stored.token, this.#now()) && regrant)) && this.#canRenewWithoutUser()) {
      this.#refreshing ??= this.#renew(stored).finally(() => (this.#refreshing = undefined));
      stored = await this.#refreshing;
      renewed = true;
    }
    if (!stored || (ctx && !issuersMatch(stored.issuer, ctx.issuer))) {
      this.#handedOut = undefined;
      return undefined;
    }
    this.#hadToken = true;
    if (!renewed && isTokenExpiring(stored.token, this.#now())) stored = await this.#refreshed(stored);
    this.#handedOut = stored;
    this.#migrationFailure = undefined; // a token is available again
    const now = this.#now();
    const tokens: StoredOAuthTokens = { access_token: stored.token.accessToken, token_type: stored.token.tokenType, issuer: stored.issuer };
    if (stored.token.expiresAt !== undefined) tokens.expires_in = Math.max(0, Math.floor((stored.token.expiresAt - now) / 1000));
    if (stored.token.scope) tokens.scope = stored.token.scope;
    return tokens;
  }

  /**
   * The DPoP signing session of the stored entry's key, or `undefined` for an entry without one
   * (bearer tokens). The SDK transports call it for every request: with a session they send a
   * `token_type: DPoP` token as `Authorization: DPoP` with a fresh proof bound to the request's
   * method, URL and the token (`ath`), and retry a `use_dpop_nonce` 401 once with the nonce
   * supplied. A bearer token passes through unchanged. The key is the one of the entry whose token
   * `tokens()` handed out last (no second read of the store per request).
   */
  async dpop(): Promise<DpopSession | undefined> {
    // The key of the token just handed out for this request; the store is read only before any was.
    const stored = this.#handedOut ?? (await this.#stored());
    return stored?.dpopKey ? this.#dpopSessions.get(stored.dpopKey, this.#options.serverName) : undefined;
  }

  /**
   * Called first whenever the SDK starts its own authorization; this provider refuses with
   * `AUTH_REQUIRED` (or `STEP_UP_LIMIT`, or why an authorization-server migration could not
   * complete) so that no flow ever starts in the background.
   */
  discoveryState(): never {
    throw this.authRequiredError();
  }

  /** Never called in practice (see `discoveryState`); refuses like it. */
  saveTokens(): never {
    throw this.authRequiredError();
  }

  /** Refuses to start a browser flow. */
  redirectToAuthorization(): never {
    throw this.authRequiredError();
  }

  /** Refuses to start a browser flow. */
  saveCodeVerifier(): never {
    throw this.authRequiredError();
  }

  /** Refuses to start a browser flow. */
  codeVerifier(): never {
    throw this.authRequiredError();
  }

  /** Deletes the stored token when the SDK reports it invalid. */
  async invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): Promise<void> {
    if (scope === 'all' || scope === 'tokens' || scope === 'client') await this.#options.tokenStore.delete(this.#options.serverName);
  }

  /**
   * Wraps a `fetch` so that 401/403 challenges from this server are recorded in
   * {@link StoredTokenOAuthProvider.lastChallenge}, and a 401 after which the server's
   * protected-resource metadata names another authorization server than the stored credentials'
   * starts the migration described on the class; when it yields new credentials, the request is
   * sent again with the new token and its answer returned instead of the 401.
   */
  wrapFetch(fetch: FetchFunction = (input, init) => globalThis.fetch(input, init)): FetchFunction {
    const origin = new URL(this.#serverUrl).origin;
    const record = (response: Response) => {
      this.lastChallenge =
        response.status === 401 || response.status === 403
          ? (parseWwwAuthenticate(response.headers.get('www-authenticate')) ?? {})
          : undefined;
    };
    return async (input, init) => {
      const response = await fetch(input, init);
      if (response.status !== 401 && response.status !== 403) return response;
      const url = new URL(input instanceof URL ? input.href : String(input));
      if (url.origin !== origin) return response;
      record(response);
      // A DPoP nonce challenge is answered by the SDK's DPoP layer around this fetch, not a migration.
      if (response.status !== 401 || !isReplayable(init?.body) || isDpopNonceChallenge(response)) return response;
      const migrated = await this.#migrateOnce(this.lastChallenge ?? {});
      if (!migrated) return response;
      await response.body?.cancel().catch(() => undefined);
      const headers = new Headers(init?.headers);
      const { accessToken, tokenType } = migrated.token;
      headers.delete('dpop');
      if (migrated.dpopKey && tokenType.toLowerCase() === 'dpop') {
        const session = await this.#dpopSessions.get(migrated.dpopKey, migrated.serverName);
        headers.set('authorization', `DPoP ${accessToken}`);
        headers.set('dpop', await session.buildProof({ htm: init?.method ?? 'GET', htu: url, accessToken }));
      } else {
        headers.set('authorization', `Bearer ${accessToken}`);
      }
      const retried = await fetch(input, { ...init, headers });
      record(retried);
      return retried;
    };
  }

  /** One migration at a time: concurrent 401s wait for the same one. */
  #migrateOnce(challenge: BearerChallenge): Promise<StoredOAuthCredentials | undefined> {
    this.#migrating ??= this.#migrate(challenge).finally(() => (this.#migrating = undefined));
    return this.#migrating;
  }

  /**
   * After a 401: rediscovers the authorization server, and when the protected-resource metadata
   * no longer lists the one the stored credentials belong to (MCP 2026-07-28, "Authorization
   * Server Binding"), deletes them and obtains new ones where no user is needed or the browser
   * hook allows it. Returns the new credentials, or `undefined` (the SDK then reports the 401,
   * with {@link StoredTokenOAuthProvider.authRequiredError} saying why).
   */
  async #migrate(challenge: BearerChallenge): Promise<StoredOAuthCredentials | undefined> {
    const stored = await this.#stored();
    // Nothing stored: a first sign-in, which is the host's to start.
    if (!stored) return undefined;
    const { serverName, config, tokenStore } = this.#options;
    const oauth = config.oauth ?? {};
    let discovery: DiscoveryResult;
    const guard = this.#guard();
    try {
      discovery = await discoverAuthorizationServer({
        serverName,
        serverUrl: this.#serverUrl,
        config: oauth,
        challenge,
        guard,
        // Learned URLs connect to the addresses the guard vetted (no DNS rebinding).
        fetch: this.#options.fetch ?? createPinnedFetch(guard),
      });
    } catch (error) {
      // Metadata refused as unsafe is worth reporting; a discovery that merely failed is not a migration.
      if (OAuthError.isInstance(error) && REFUSED_METADATA.has(error.code)) this.#migrationFailure = error;
      return undefined;
    }
    // Only protected-resource metadata can move a server to another authorization server.
    if (!discovery.resourceMetadataUrl) return undefined;
    const from = stored.issuer;
    // An entry that records no issuer (one Gemini CLI or Qwen Code wrote) cannot tell a move: the 401 asks for a sign-in.
    if (!from) return undefined;
    const to = discovery.authorizationServer.issuer;
    if (issuersMatch(to, from) || discovery.authorizationServers?.some((listed) => issuersMatch(listed, from))) return undefined;
    const key = `${from} -> ${to}`;
    if (this.#migrations.has(key)) return undefined;
    this.#migrations.add(key);
    // A pre-registered client belongs to one authorization server; `oauth.issuer` naming the new one confirms it.
    const refused = oauth.clientId !== undefined && !(oauth.issuer !== undefined && issuersMatch(oauth.issuer, to));
    // Set before the store changes, so that no concurrent tokens() renews with the refused client.
    if (refused)
      this.#migrationFailure = oauthErrorFromSdk(new AuthorizationServerMismatchError(from, to), {
        serverName,
        authCommand: this.#options.authCommand,
      });
    // Credentials of one authorization server are never sent to another: drop them first.
    await tokenStore.delete(serverName, from);
    if (refused) return undefined;
    const moved = `MCP server '${serverName}' moved from the authorization server ${JSON.stringify(from)} to ${JSON.stringify(to)}; the credentials issued by ${JSON.stringify(from)} were deleted and are not reused`;
    if (!this.#canRenewWithoutUser() && !this.#options.openBrowser) {
      this.#migrationFailure = new OAuthError({
        code: 'AUTH_REQUIRED',
        message: `${moved}. Signing in with ${JSON.stringify(to)} needs the browser: ${authCommandHint(serverName, this.#options.authCommand)}.`,
        serverName,
        url: discovery.resourceMetadataUrl,
      });
      return undefined;
    }
    try {
      const renewed = await this.#authenticate({
        challenge,
        ...(this.#options.openBrowser ? { openBrowser: this.#options.openBrowser } : {}),
        ...(this.#options.onAuthorizationUrl ? { onAuthorizationUrl: this.#options.onAuthorizationUrl } : {}),
        ...(this.#options.applicationType ? { applicationType: this.#options.applicationType } : {}),
        ...(this.#options.signal ? { signal: this.#options.signal } : {}),
      });
      this.#migrationFailure = undefined;
      return renewed;
    } catch (error) {
      const cancelled = OAuthError.isInstance(error) && error.code === 'CANCELLED';
      this.#migrationFailure = cancelled
        ? new OAuthError({
            code: 'AUTH_REQUIRED',
            message: `${moved}, and the sign-in with ${JSON.stringify(to)} was cancelled: ${authCommandHint(serverName, this.#options.authCommand)}.`,
            serverName,
            cause: error,
          })
        : OAuthError.isInstance(error)
          ? error
          : new OAuthError({
              code: 'AUTH_REQUIRED',
              message: `${moved}, and signing in with ${JSON.stringify(to)} failed (${(error as Error).message}): ${authCommandHint(serverName, this.#options.authCommand)}.`,
              serverName,
              cause: error,
            });
      return undefined;
    }
  }

  /**
   * The error thrown instead of authorizing: `AUTH_REQUIRED`, or `STEP_UP_LIMIT` once step-ups
   * repeat. After an authorization-server migration that could not complete, it is the reason,
   * until a token is available again (an `INVALID_CONFIG` for a pre-registered client stays).
   */
  authRequiredError(): OAuthError {
    const { serverName } = this.#options;
    const challenge = this.lastChallenge;
    if (this.#migrationFailure && challenge?.error !== 'insufficient_scope') return this.#migrationFailure;
    if (challenge?.error === 'insufficient_scope') {
      const key = challenge.scope ?? '';
      const attempts = (this.#stepUps.get(key) ?? 0) + 1;
      this.#stepUps.set(key, attempts);
      if (attempts > (this.#options.maxStepUpAttempts ?? 2)) {
        return new OAuthError({
          code: 'STEP_UP_LIMIT',
          message: `MCP server '${serverName}' still answers insufficient_scope${challenge.scope ? ` (scope "${challenge.scope}")` : ''} after ${attempts - 1} step-up attempts; giving up. Check the scopes your account may grant.`,
          serverName,
          oauthErrorCode: challenge.error,
          requiredScope: challenge.scope,
        });
      }
      return new OAuthError({
        code: 'AUTH_REQUIRED',
        message: `MCP server '${serverName}' needs more permissions${challenge.scope ? ` (scope "${challenge.scope}")` : ''}: ${authCommandHint(serverName, this.#options.authCommand)}.`,
        serverName,
        oauthErrorCode: challenge.error,
        requiredScope: challenge.scope,
      });
    }
    if (challenge?.error === 'use_dpop_nonce') {
      return new OAuthError({
        code: 'AUTH_REQUIRED',
        message: `MCP server '${serverName}' asked again for a DPoP nonce after the request was repeated with the nonce it supplied (RFC 9449 §9); toolhost retries only once. If this persists, ${authCommandHint(serverName, this.#options.authCommand)}, or check the server's DPoP nonce handling.`,
        serverName,
        oauthErrorCode: challenge.error,
      });
    }
    const message = this.#hadToken
      ? `MCP server '${serverName}' rejected the stored OAuth token: ${authCommandHint(serverName, this.#options.authCommand)}.`
      : `MCP server '${serverName}' requires authentication: ${authCommandHint(serverName, this.#options.authCommand)}.`;
    return new OAuthError({
      code: 'AUTH_REQUIRED',
      message,
      serverName,
      oauthErrorCode: challenge?.error,
      requiredScope: challenge?.scope,
    });
  }
}
