import type { DpopSession } from '@modelcontextprotocol/client';
import { createClientAssertion, JWT_BEARER_CLIENT_ASSERTION_TYPE, type ClientAssertionKey } from './client-assertion.js';
import type { FetchFunction } from './guarded-fetch.js';
import { escapeControlText } from '@toolhost/contract';
import { OAuthError, type OAuthErrorCode } from './oauth-error.js';
import type { StoredClient, StoredToken } from './token-store.js';

/** A client authentication method at the token endpoint. */
export type TokenEndpointAuthMethod = 'none' | 'client_secret_basic' | 'client_secret_post' | 'private_key_jwt';

/**
 * Picks how the client authenticates at the token endpoint: the method configured or registered
 * for the client when it is usable (`private_key_jwt` needs a key, the secret methods a secret);
 * `none` for a public client; for a confidential one `client_secret_basic` when supported or not
 * advertised (the RFC 8414 default), else `client_secret_post`.
 */
export function selectTokenEndpointAuthMethod(client: StoredClient, supported?: readonly string[]): TokenEndpointAuthMethod {
  const registered = client.tokenEndpointAuthMethod;
  if (registered === 'private_key_jwt' || registered === 'none') return registered;
  if (!client.clientSecret) return 'none';
  if (registered === 'client_secret_basic' || registered === 'client_secret_post') return registered;
  if (!supported || supported.length === 0 || supported.includes('client_secret_basic')) return 'client_secret_basic';
  return supported.includes('client_secret_post') ? 'client_secret_post' : 'client_secret_basic';
}

/** Options of {@link requestToken}. */
export interface RequestTokenOptions {
  /** Name of the server entry, for messages. */
  serverName: string;
  /** The (already checked) token endpoint. */
  tokenEndpoint: string;
  /** The client. */
  client: StoredClient;
  /** `token_endpoint_auth_methods_supported`, when known. */
  authMethodsSupported?: readonly string[];
  /** Grant parameters (`grant_type`, `code`, `refresh_token`, `resource`...). */
  params: Record<string, string | undefined>;
  /** Error code to throw with on failure. */
  failureCode: Extract<OAuthErrorCode, 'TOKEN_EXCHANGE_FAILED' | 'REFRESH_FAILED' | 'ID_JAG_EXCHANGE_FAILED'>;
  /** What the request does, for messages ("obtain a client credentials token"). @default from `failureCode` */
  what?: string;
  /** Signing key and audience (the authorization server's issuer) of a `private_key_jwt` client. */
  clientAssertion?: { key: ClientAssertionKey; audience: string };
  /** HTTP client. */
  fetch: FetchFunction;
  /** Clock. */
  now: () => number;
  /** Gives up when the token endpoint has not answered within this many milliseconds. @default no limit */
  timeoutMs?: number;
  /**
   * Sends a DPoP proof (RFC 9449 §5) signed by this session with the request, so the token is
   * bound to its key; a `use_dpop_nonce` answer is retried once with the server's nonce.
   */
  dpop?: DpopSession;
}

/** RFC 9449 §8: the token endpoint's answer asking for a proof with its `DPoP-Nonce`. */
const USE_DPOP_NONCE = 'use_dpop_nonce';

/** OAuth error codes a token endpoint answers with when the failure is on its side and may pass. */
const TRANSIENT_OAUTH_ERRORS = new Set(['temporarily_unavailable', 'server_error']);

function formEncode(value: string): string {
  return encodeURIComponent(value).replace(/%20/g, '+');
}

async function readTokenResponse(response: Response): Promise<Record<string, unknown>> {
  const text = await response.text();
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value === 'object' && value !== null) return value as Record<string, unknown>;
  } catch {
    // Some servers answer application/x-www-form-urlencoded (GitHub without an Accept header).
  }
  return Object.fromEntries(new URLSearchParams(text));
}

/** True for `localhost` (and `*.localhost`), 127.0.0.0/8 and `[::1]`. */
function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase();
  return host === 'localhost' || host.endsWith('.localhost') || host === '[::1]' || /^127(?:\.\d{1,3}){3}$/.test(host);
}

/**
 * Refuses to send a client secret in clear text: a `client_secret_basic` or `client_secret_post`
 * request to a plain-http token endpoint that is not on loopback (even when private networks
 * are allowed) throws `UNSAFE_URL` naming the server and the URL.
 */
function assertSecretTransport(method: TokenEndpointAuthMethod, tokenEndpoint: string, serverName: string): void {
  if (method !== 'client_secret_basic' && method !== 'client_secret_post') return;
  let url: URL;
  try {
    url = new URL(tokenEndpoint);
  } catch {
    return; // fetch reports an unusable URL itself.
  }
  if (url.protocol !== 'http:' || isLoopbackHost(url.hostname)) return;
  throw new OAuthError({
    code: 'UNSAFE_URL',
    message: `Refused to send the client secret of MCP server '${serverName}' over plain http to the token endpoint ${url.href}: it is not on loopback, so the secret would travel unencrypted. Use an https token endpoint.`,
    serverName,
    url: url.href,
  });
}

/**
 * POSTs a token request (code exchange or refresh) and returns the token, or throws `OAuthError`.
 * With `dpop`, every attempt carries a fresh proof, and an answer `400 use_dpop_nonce` with a
 * `DPoP-Nonce` header is retried once with that nonce (a second such answer is the failure).
 */
export async function requestToken(options: RequestTokenOptions): Promise<StoredToken> {
  const { client, serverName, dpop } = options;
  const method = selectTokenEndpointAuthMethod(client, options.authMethodsSupported);
  assertSecretTransport(method, options.tokenEndpoint, serverName);
  if (method === 'private_key_jwt' && !options.clientAssertion) {
    throw new OAuthError({
      code: 'INVALID_CONFIG',
      message: `MCP server '${serverName}' uses private_key_jwt client authentication but no private key is configured; set oauth.privateKey or oauth.privateKeyFile.`,
      serverName,
    });
  }
  // Built for each attempt: a client assertion (like a DPoP proof) has a `jti` of its own.
  const build = async (): Promise<{ headers: Record<string, string>; body: URLSearchParams }> => {
    const body = new URLSearchParams();
    for (const [key, value] of Object.entries(options.params)) if (value !== undefined) body.set(key, value);
    const headers: Record<string, string> = {
      'content-type': 'application/x-www-form-urlencoded',
      accept: 'application/json, application/x-www-form-urlencoded',
    };
    if (method === 'client_secret_basic') {
      const credentials = `${formEncode(client.clientId)}:${formEncode(client.clientSecret ?? '')}`;
      headers.authorization = `Basic ${Buffer.from(credentials).toString('base64')}`;
    } else {
      // A workload identity grant may come without a client: then no client_id is sent at all.
      if (client.clientId || method !== 'none') body.set('client_id', client.clientId);
      if (method === 'client_secret_post') body.set('client_secret', client.clientSecret ?? '');
      if (method === 'private_key_jwt' && options.clientAssertion) {
        body.set('client_assertion_type', JWT_BEARER_CLIENT_ASSERTION_TYPE);
        body.set('client_assertion', createClientAssertion({ clientId: client.clientId, ...options.clientAssertion, now: options.now }));
      }
    }
    if (dpop) headers.dpop = await dpop.buildProof({ htm: 'POST', htu: options.tokenEndpoint });
    return { headers, body };
  };
  const what = options.what ?? (options.failureCode === 'REFRESH_FAILED' ? 'refresh the OAuth token' : 'exchange the authorization code');
  let response: Response;
  let data: Record<string, unknown>;
  const signal = options.timeoutMs === undefined ? undefined : AbortSignal.timeout(options.timeoutMs);
  try {
    const attempt = async (): Promise<{ response: Response; data: Record<string, unknown> }> => {
      const { headers, body } = await build();
      const answer = await options.fetch(options.tokenEndpoint, {
        method: 'POST',
        headers,
        body,
        redirect: 'error',
        ...(signal ? { signal } : {}),
      });
      // RFC 9449 §8.2: a nonce may come with any answer; the next proof carries it.
      dpop?.observeNonce(answer, options.tokenEndpoint);
      return { response: answer, data: await readTokenResponse(answer) };
    };
    ({ response, data } = await attempt());
    if (dpop && response.status === 400 && data.error === USE_DPOP_NONCE && response.headers.get('dpop-nonce')) {
      ({ response, data } = await attempt());
    }
  } catch (error) {
    if (OAuthError.isInstance(error)) throw error;
    // No answer at all (network error, timeout): nothing says the credentials are bad.
    const timedOut = signal?.aborted === true;
    throw new OAuthError({
      code: options.failureCode,
      message: `Could not ${what} for MCP server '${serverName}': ${timedOut ? `the token endpoint did not answer within ${options.timeoutMs} ms` : (error as Error).message}`,
      serverName,
      url: options.tokenEndpoint,
      cause: error,
      retryable: true,
    });
  }
  if (!response.ok || typeof data.access_token !== 'string') {
    const oauthError = typeof data.error === 'string' ? data.error : undefined;
    // The authorization server's words: escaped, so they cannot drive the terminal or forge log lines.
    const description =
      typeof data.error_description === 'string' ? ` - ${escapeControlText(data.error_description, { maxLength: 300 })}` : '';
    const shown = oauthError === undefined ? `HTTP ${response.status}` : escapeControlText(oauthError, { maxLength: 100 });
    throw new OAuthError({
      code: options.failureCode,
      message: `Could not ${what} for MCP server '${serverName}': ${shown}${description}.`,
      serverName,
      url: options.tokenEndpoint,
      oauthErrorCode: oauthError,
      retryable: response.status >= 500 || response.status === 429 || (oauthError !== undefined && TRANSIENT_OAUTH_ERRORS.has(oauthError)),
    });
  }
  // RFC 6749 Appendix A.12: an access token is visible ASCII. Anything else (a line break, NUL,
  // non-ASCII) cannot go in an Authorization header, and fetch's refusal would quote the token.
  if (!/^[\x20-\x7e]+$/.test(data.access_token)) {
    throw new OAuthError({
      code: options.failureCode,
      message: `Could not ${what} for MCP server '${serverName}': the token endpoint answered an access token that is empty or has characters an access token cannot have (RFC 6749 allows visible ASCII only), so it was not stored. The token is not shown; check the authorization server.`,
      serverName,
      url: options.tokenEndpoint,
    });
  }
  const token: StoredToken = {
    accessToken: data.access_token,
    tokenType: typeof data.token_type === 'string' && data.token_type ? data.token_type : 'Bearer',
  };
  if (typeof data.refresh_token === 'string' && data.refresh_token) token.refreshToken = data.refresh_token;
  const expiresIn = Number(data.expires_in);
  if (data.expires_in !== undefined && Number.isFinite(expiresIn)) token.expiresAt = options.now() + expiresIn * 1000;
  if (typeof data.scope === 'string') token.scope = data.scope;
  return token;
}
