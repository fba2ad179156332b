import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { McpServerConfig } from '@toolhost/config';
import { authenticate, serverUrlOf } from './authenticate.js';
import { DEFAULT_REDIRECT_URI } from './callback-server.js';
import type { FetchFunction } from './guarded-fetch.js';
import { authCommandHint, OAuthError } from './oauth-error.js';
import { isTokenExpiring, refreshStoredToken } from './refresh-stored-token.js';
import type { StoredOAuthCredentials, TokenStore } from './token-store.js';
import { canonicalResourceUri } from './well-known-urls.js';
import { parseWwwAuthenticate, type BearerChallenge } from './www-authenticate.js';

/** Options of {@link StoredTokenOAuthProvider}. */
export interface StoredTokenOAuthProviderOptions {
  /** Name of the server entry. */
  serverName: string;
  /** The server entry. */
  config: McpServerConfig;
  /** Where `authenticate()` stored the token. */
  tokenStore: TokenStore;
  /** HTTP client for refresh requests. @default globalThis.fetch */
  fetch?: FetchFunction;
  /** Clock. @default Date.now */
  now?: () => number;
  /**
   * How many `insufficient_scope` step-ups for the same challenged scope this provider allows before
   * `STEP_UP_LIMIT` (counted for the provider's lifetime: a reconnect does not reset it). @default 2
   */
  maxStepUpAttempts?: number;
  /** The enterprise IdP's ID token, so that an `enterprise_managed` token can be renewed without the user. */
  idpIdToken?: string | (() => Promise<string>);
}

/**
 * An SDK `OAuthClientProvider` backed by stored tokens. It hands the SDK the stored token
 * (refreshed 5 minutes before expiry) and never starts a browser flow: whenever the SDK would
 * authorize (a 401, or a 403 `insufficient_scope`), it throws `OAuthError` `AUTH_REQUIRED`
 * naming the server and `toolhost mcp auth <name>`. The host then decides whether to run
 * `authenticate()` (with {@link StoredTokenOAuthProvider.lastChallenge}) and reconnect.
 *
 * Pass {@link StoredTokenOAuthProvider.wrapFetch} as the transport's `fetch` so the provider sees
 * the challenges' `scope` and `resource_metadata`.
 */
export class StoredTokenOAuthProvider implements OAuthClientProvider {
  /** The challenge of the most recent 401/403 from the server, when `wrapFetch` was used. */
  lastChallenge: BearerChallenge | undefined;
  readonly #serverUrl: string;
  readonly #stepUps = new Map<string, number>();
  #refreshing: Promise<StoredOAuthCredentials> | undefined;
  #hadToken = false;

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

  /** Client metadata (informational: this provider never registers a client). */
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'toolhost (stored OAuth token)',
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }

  /** The stored entry of this server, ignored when it was issued for another server URL (the entry's URL changed). */
  async #stored(): Promise<StoredOAuthCredentials | undefined> {
    const stored = await this.#options.tokenStore.get(this.#options.serverName);
    return stored && canonicalResourceUri(stored.mcpServerUrl) === canonicalResourceUri(this.#serverUrl) ? stored : undefined;
  }

  /** The stored client registration, if any. */
  async clientInformation(): Promise<OAuthClientInformationMixed | undefined> {
    const stored = await this.#stored();
    if (!stored) return undefined;
    return stored.client.clientSecret
      ? { client_id: stored.client.clientId, client_secret: stored.client.clientSecret }
      : { client_id: stored.client.clientId };
  }

  /** True when a new token can be obtained without the user (client credentials, or enterprise-managed with an ID token). */
  #canRenewWithoutUser(): boolean {
    const oauth = this.#options.config.oauth;
    if (oauth?.grantType === 'client_credentials') return true;
    return oauth?.grantType === 'enterprise_managed' && (this.#options.idpIdToken !== undefined || oauth.idp?.idToken !== undefined);
  }

  /** Runs the grant of the entry again (no browser is involved; see {@link canRenewWithoutUser}). */
  #renew(): Promise<StoredOAuthCredentials> {
    const { serverName, config, tokenStore } = this.#options;
    return authenticate(serverName, config, {
      tokenStore,
      ...(this.#options.fetch ? { fetch: this.#options.fetch } : {}),
      ...(this.#options.now ? { now: this.#options.now } : {}),
      ...(this.#options.idpIdToken !== undefined ? { idpIdToken: this.#options.idpIdToken } : {}),
    });
  }

  /**
   * The stored token, refreshed first when it expires within 5 minutes; `undefined` when there is
   * none. For `client_credentials` entries (and `enterprise_managed` ones with an ID token) a
   * missing or expiring token without a refresh token is obtained again, since no user is involved.
   */
  async tokens(): Promise<OAuthTokens | undefined> {
    let stored = await this.#stored();
    const now = this.#options.now ?? Date.now;
    let renewed = false;
    if ((!stored || (isTokenExpiring(stored.token, now()) && !stored.token.refreshToken)) && this.#canRenewWithoutUser()) {
      this.#refreshing ??= this.#renew().finally(() => (this.#refreshing = undefined));
      stored = await this.#refreshing;
      renewed = true;
    }
    if (!stored) return undefined;
    this.#hadToken = true;
    if (!renewed && isTokenExpiring(stored.token, now())) {
      const expiring = stored;
      this.#refreshing ??= refreshStoredToken({
        credentials: expiring,
        tokenStore: this.#options.tokenStore,
        fetch: this.#options.fetch ?? ((input, init) => globalThis.fetch(input, init)),
        now,
      }).finally(() => (this.#refreshing = undefined));
      stored = await this.#refreshing;
    }
    const tokens: OAuthTokens = { access_token: stored.token.accessToken, token_type: stored.token.tokenType };
    if (stored.token.expiresAt !== undefined) tokens.expires_in = Math.max(0, Math.floor((stored.token.expiresAt - now()) / 1000));
    if (stored.token.scope) tokens.scope = stored.token.scope;
    return tokens;
  }

  /**
   * Called first whenever the SDK starts its own authorization; this provider refuses with
   * `AUTH_REQUIRED` (or `STEP_UP_LIMIT`) so that no flow ever starts in the background.
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
   * {@link StoredTokenOAuthProvider.lastChallenge}.
   */
  wrapFetch(fetch: FetchFunction = (input, init) => globalThis.fetch(input, init)): FetchFunction {
    const origin = new URL(this.#serverUrl).origin;
    return async (input, init) => {
      const response = await fetch(input, init);
      const url = new URL(input instanceof URL ? input.href : String(input));
      if (url.origin === origin) {
        if (response.status === 401 || response.status === 403) {
          this.lastChallenge = parseWwwAuthenticate(response.headers.get('www-authenticate')) ?? {};
        }
      }
      return response;
    };
  }

  /** The error thrown instead of authorizing: `AUTH_REQUIRED`, or `STEP_UP_LIMIT` once step-ups repeat. */
  authRequiredError(): OAuthError {
    const { serverName } = this.#options;
    const challenge = this.lastChallenge;
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
        message: `MCP server '${serverName}' needs more permissions${challenge.scope ? ` (scope "${challenge.scope}")` : ''}: ${authCommandHint(serverName)}.`,
        serverName,
        oauthErrorCode: challenge.error,
        requiredScope: challenge.scope,
      });
    }
    const message = this.#hadToken
      ? `MCP server '${serverName}' rejected the stored OAuth token: ${authCommandHint(serverName)}.`
      : `MCP server '${serverName}' requires authentication: ${authCommandHint(serverName)}.`;
    return new OAuthError({
      code: 'AUTH_REQUIRED',
      message,
      serverName,
      oauthErrorCode: challenge?.error,
      requiredScope: challenge?.scope,
    });
  }
}
