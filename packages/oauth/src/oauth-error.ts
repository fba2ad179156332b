const BRAND = Symbol.for('toolhost.oauth');

/** Stable codes of {@link OAuthError}; callers switch on these, never on message text. */
export type OAuthErrorCode =
  /** The server needs an (interactive) authentication the host must start explicitly. */
  | 'AUTH_REQUIRED'
  /** A URL learned from a server (or given to the browser opener) was refused by the URL guard. */
  | 'UNSAFE_URL'
  /** The protected-resource metadata names a different resource than the server being accessed. */
  | 'RESOURCE_MISMATCH'
  /** No usable protected-resource or authorization-server metadata was found. */
  | 'DISCOVERY_FAILED'
  /** Metadata was found but is not usable (missing endpoints, wrong response types, bad JSON). */
  | 'INVALID_METADATA'
  /** The authorization server does not advertise PKCE S256 support. */
  | 'PKCE_UNSUPPORTED'
  /** No client id is configured and neither a metadata document nor dynamic registration is possible. */
  | 'NO_CLIENT_REGISTRATION'
  /** Dynamic client registration was refused by the authorization server. */
  | 'REGISTRATION_FAILED'
  /** The authorization server redirected back with an `error` parameter. */
  | 'AUTHORIZATION_DENIED'
  /** The callback carried a `state` that does not match the one sent. */
  | 'STATE_MISMATCH'
  /** The callback's RFC 9207 `iss` is missing or names another authorization server (mix-up attack). */
  | 'ISSUER_MISMATCH'
  /** No callback arrived in time. */
  | 'CALLBACK_TIMEOUT'
  /** The loopback callback server could not listen on its port. */
  | 'CALLBACK_PORT_IN_USE'
  /** The authorization code could not be exchanged for tokens. */
  | 'TOKEN_EXCHANGE_FAILED'
  /** A stored token could not be refreshed; it was deleted. */
  | 'REFRESH_FAILED'
  /** The server kept answering `insufficient_scope` after the allowed number of step-ups. */
  | 'STEP_UP_LIMIT'
  /** The browser could not be opened. */
  | 'BROWSER_OPEN_FAILED'
  /** The server entry's OAuth settings are invalid for the chosen provider. */
  | 'INVALID_CONFIG'
  /** The authorization server does not support the configured `grantType` (`grant_types_supported`). */
  | 'GRANT_TYPE_UNSUPPORTED'
  /** The enterprise IdP refused to exchange the ID token for an ID-JAG (RFC 8693 token exchange). */
  | 'ID_JAG_EXCHANGE_FAILED'
  /** Google credentials could not produce a token. */
  | 'GOOGLE_AUTH_FAILED'
  /** The token store could not be read or written. */
  | 'TOKEN_STORE_FAILED'
  /** The flow was cancelled through its abort signal. */
  | 'CANCELLED';

/** Structured fields of an {@link OAuthError}. */
export interface OAuthErrorOptions {
  /** Stable error code. */
  code: OAuthErrorCode;
  /** Name of the MCP server entry concerned, when known. */
  serverName?: string;
  /** The URL concerned (refused URL, endpoint that failed), when there is one. */
  url?: string;
  /** The RFC 6749 / RFC 6750 error code returned by the server (`invalid_grant`, `insufficient_scope`...). */
  oauthErrorCode?: string;
  /** Scopes the server asked for in its challenge, when the error comes from one. */
  requiredScope?: string;
  /** The underlying error. */
  cause?: unknown;
}

/**
 * The one error family of `@toolhost/oauth`.
 *
 * @example
 * ```ts
 * try { await client.connect(transport); }
 * catch (e) { if (OAuthError.isInstance(e) && e.code === 'AUTH_REQUIRED') showAuthHint(e.message); }
 * ```
 */
export class OAuthError extends Error {
  /** Stable error code. */
  readonly code: OAuthErrorCode;
  /** Name of the MCP server entry concerned, when known. */
  readonly serverName: string | undefined;
  /** The URL concerned, when there is one. */
  readonly url: string | undefined;
  /** The OAuth error code returned by the server, when there is one. */
  readonly oauthErrorCode: string | undefined;
  /** Scopes the server asked for in its challenge, when known. */
  readonly requiredScope: string | undefined;
  private readonly [BRAND] = true;

  /** Creates an error; `message` says what happened, to which server, and what the user can do. */
  constructor(message: string, options: OAuthErrorOptions) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'OAuthError';
    this.code = options.code;
    this.serverName = options.serverName;
    this.url = options.url;
    this.oauthErrorCode = options.oauthErrorCode;
    this.requiredScope = options.requiredScope;
  }

  /** True for any `OAuthError`, also one thrown by another copy of this package. */
  static isInstance(value: unknown): value is OAuthError {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[BRAND] === true;
  }
}

/** The hint every "needs authentication" message ends with. */
export function authCommandHint(serverName: string): string {
  return `run "toolhost mcp auth ${serverName}" (or your host's equivalent) to authenticate`;
}
