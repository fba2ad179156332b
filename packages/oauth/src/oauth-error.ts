import { ToolhostError, type ErrorCode, type ToolhostErrorOptions } from '@toolhost/contract';

const OAUTH_ERROR_CODES = [
  'AUTH_REQUIRED',
  'UNSAFE_URL',
  'RESOURCE_MISMATCH',
  'DISCOVERY_FAILED',
  'INVALID_METADATA',
  'PKCE_UNSUPPORTED',
  'NO_CLIENT_REGISTRATION',
  'REGISTRATION_FAILED',
  'AUTHORIZATION_DENIED',
  'STATE_MISMATCH',
  'ISSUER_MISMATCH',
  'CALLBACK_TIMEOUT',
  'CALLBACK_PORT_IN_USE',
  'TOKEN_EXCHANGE_FAILED',
  'REFRESH_FAILED',
  'STEP_UP_LIMIT',
  'BROWSER_OPEN_FAILED',
  'INVALID_CONFIG',
  'GRANT_TYPE_UNSUPPORTED',
  'ID_JAG_EXCHANGE_FAILED',
  'GOOGLE_AUTH_FAILED',
  'PACKAGE_NOT_INSTALLED',
  'STORE_FAILED',
  'CANCELLED',
] as const satisfies readonly ErrorCode[];

/**
 * Stable codes of {@link OAuthError} (each explained in the contract's `ERROR_CODES`); callers
 * switch on these, never on message text:
 * - `AUTH_REQUIRED`: the server needs an (interactive) authentication the host must start explicitly.
 * - `UNSAFE_URL`: a URL learned from a server (or given to the browser opener) was refused by the URL guard, or a client
 *   secret would have gone over plain http to a token endpoint that is not on loopback.
 * - `RESOURCE_MISMATCH`: the protected-resource metadata names a different resource than the server being accessed.
 * - `DISCOVERY_FAILED`: no usable protected-resource or authorization-server metadata was found.
 * - `INVALID_METADATA`: metadata was found but is not usable (missing endpoints, wrong response types, bad JSON).
 * - `PKCE_UNSUPPORTED`: the authorization server does not advertise PKCE S256 support.
 * - `NO_CLIENT_REGISTRATION`: no client id is configured and neither a metadata document nor dynamic registration is possible.
 * - `REGISTRATION_FAILED`: dynamic client registration was refused by the authorization server.
 * - `AUTHORIZATION_DENIED`: the authorization server redirected back with an `error` parameter.
 * - `STATE_MISMATCH`: the callback carried a `state` that does not match the one sent.
 * - `ISSUER_MISMATCH`: an issuer names another authorization server (mix-up attack): the `issuer` of
 *   authorization-server metadata differs from the issuer it was discovered for (RFC 8414 §3.3), or the
 *   callback's RFC 9207 `iss` is missing or names another authorization server. `cause` is the SDK's `IssuerMismatchError`.
 * - `CALLBACK_TIMEOUT`: no callback arrived in time.
 * - `CALLBACK_PORT_IN_USE`: the loopback callback server could not listen on its port.
 * - `TOKEN_EXCHANGE_FAILED`: the authorization code could not be exchanged for tokens.
 * - `REFRESH_FAILED`: a stored token could not be refreshed. The stored credentials are deleted only when the
 *   authorization server rejected them (`invalid_grant`, `invalid_client`, `unauthorized_client`); after a
 *   transient failure (network error, timeout, HTTP 5xx or 429) they are kept and `retryable` is true.
 * - `STEP_UP_LIMIT`: the server kept answering `insufficient_scope` after the allowed number of step-ups.
 * - `BROWSER_OPEN_FAILED`: the browser could not be opened.
 * - `INVALID_CONFIG`: the server entry's OAuth settings are invalid for the chosen provider, the key or workload
 *   identity token file they name cannot be read or is empty, or its pre-registered client belongs to another
 *   authorization server than the one the server now names.
 * - `GRANT_TYPE_UNSUPPORTED`: the authorization server does not support the configured `grantType` (`grant_types_supported`).
 * - `ID_JAG_EXCHANGE_FAILED`: the enterprise IdP refused to exchange the ID token for an ID-JAG (RFC 8693 token exchange).
 * - `GOOGLE_AUTH_FAILED`: Google credentials could not produce a token.
 * - `PACKAGE_NOT_INSTALLED`: a Google provider needs the optional peer dependency `google-auth-library`, which is not installed.
 * - `STORE_FAILED`: the token store could not be read or written.
 * - `CANCELLED`: the flow was cancelled through its abort signal.
 */
export type OAuthErrorCode = (typeof OAUTH_ERROR_CODES)[number];

/** Fields of an {@link OAuthError}: the common `code`, `message`, `serverName`, `cause`, plus the OAuth details. */
export interface OAuthErrorOptions extends ToolhostErrorOptions<OAuthErrorCode> {
  /** The URL concerned (refused URL, endpoint that failed), when there is one. */
  readonly url?: string | undefined;
  /** The RFC 6749 / RFC 6750 error code returned by the server (`invalid_grant`, `insufficient_scope`...). */
  readonly oauthErrorCode?: string | undefined;
  /** Scopes the server asked for in its challenge, when the error comes from one. */
  readonly requiredScope?: string | undefined;
  /**
   * True when the failure looks transient (network error, timeout, HTTP 5xx or 429, `temporarily_unavailable`):
   * trying again later may succeed without a new sign-in. @default false
   */
  readonly retryable?: boolean | undefined;
}

/**
 * The error of `@toolhost/oauth` (family `oauth`).
 *
 * @example
 * ```ts
 * try { await client.connect(transport); }
 * catch (e) { if (OAuthError.isInstance(e) && e.code === 'AUTH_REQUIRED') showAuthHint(e.message); }
 * ```
 */
export class OAuthError extends ToolhostError<OAuthErrorCode> {
  /** The family of these errors: `oauth`. */
  static override readonly family = 'oauth';
  /** The codes an `OAuthError` can carry. */
  static override readonly codes = OAUTH_ERROR_CODES;
  /** The URL concerned, when there is one. */
  readonly url: string | undefined;
  /** The OAuth error code returned by the server, when there is one. */
  readonly oauthErrorCode: string | undefined;
  /** Scopes the server asked for in its challenge, when known. */
  readonly requiredScope: string | undefined;
  /** True when the failure looks transient and trying again later may succeed (nothing was deleted). */
  readonly retryable: boolean;

  /** Creates an error; `message` says what happened, to which server, and what the user can do. */
  constructor(options: OAuthErrorOptions) {
    super(options);
    this.url = options.url;
    this.oauthErrorCode = options.oauthErrorCode;
    this.requiredScope = options.requiredScope;
    this.retryable = options.retryable === true;
  }
}

/** The command that signs in to a server, named in messages, when no other is given. */
export const DEFAULT_AUTH_COMMAND = 'toolhost mcp auth';

/**
 * The hint every "needs authentication" message ends with. `authCommand` is the command that
 * signs in, without the server name (`toolhost --app-dir .gemini mcp auth` for a host that keeps
 * its tokens in `~/.gemini`). @default 'toolhost mcp auth'
 */
export function authCommandHint(serverName: string, authCommand: string = DEFAULT_AUTH_COMMAND): string {
  return `run "${authCommand} ${serverName}" (or your host's equivalent) to authenticate`;
}
