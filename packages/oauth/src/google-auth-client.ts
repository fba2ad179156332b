import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/client';
import { OAuthError } from './oauth-error.js';
import { TOKEN_REFRESH_BUFFER_MS } from './refresh-stored-token.js';

/** The part of a google-auth-library client these providers use. */
export interface GoogleAuthClientLike {
  /** Returns an access token for the configured scopes. */
  getAccessToken(): Promise<{ token?: string | null }>;
  /** The current credentials (for `expiry_date`). */
  credentials?: { expiry_date?: number | null };
  /** The quota project, sent as `X-Goog-User-Project`. */
  quotaProjectId?: string;
  /** An authorized HTTP request. */
  request<T>(options: { url: string; method: string; data?: unknown }): Promise<{ data: T }>;
}

/** The part of google-auth-library's `GoogleAuth` these providers use. */
export interface GoogleAuthLike {
  /** Resolves Application Default Credentials. */
  getClient(): Promise<GoogleAuthClientLike>;
}

/** Creates `new GoogleAuth({ scopes })` from google-auth-library, loaded on first use. */
export async function createGoogleAuth(scopes: readonly string[]): Promise<GoogleAuthLike> {
  const { GoogleAuth } = await import('google-auth-library');
  return new GoogleAuth({ scopes: [...scopes] }) as unknown as GoogleAuthLike;
}

/**
 * Shared base of the Google providers: they hold no browser flow, no client registration and
 * no stored token, so the SDK's authorization hooks fail with a typed error instead.
 */
export abstract class GoogleProviderBase {
  /** Name of the server entry. */
  protected abstract readonly serverName: string;
  #cached: { tokens: OAuthTokens; until: number } | undefined;

  /** The cached tokens, while they are more than 5 minutes from expiry. */
  protected cachedTokens(now: number): OAuthTokens | undefined {
    return this.#cached && now < this.#cached.until ? this.#cached.tokens : undefined;
  }

  /** The bearer tokens for `token`, cached until 5 minutes before `expiry` (ms since the epoch) when it is known. */
  protected bearerTokens(token: string, expiry: number | undefined, now: number): OAuthTokens {
    const tokens: OAuthTokens = { access_token: token, token_type: 'Bearer' };
    if (expiry) {
      tokens.expires_in = Math.max(0, Math.floor((expiry - now) / 1000));
      this.#cached = { tokens, until: expiry - TOKEN_REFRESH_BUFFER_MS };
    }
    return tokens;
  }

  /** No redirect: these providers never run a browser flow. */
  get redirectUrl(): undefined {
    return undefined;
  }

  /** Client metadata (informational). */
  get clientMetadata(): OAuthClientMetadata {
    return { client_name: 'toolhost (Google credentials)', redirect_uris: [], grant_types: [], response_types: [] };
  }

  /** No client registration. */
  clientInformation(): OAuthClientInformationMixed | undefined {
    return undefined;
  }

  /** The SDK starts its own authorization only after a 401: Google credentials cannot recover from it. */
  discoveryState(): never {
    throw this.#rejected();
  }

  /** Not used. */
  saveTokens(): void {}

  /** Never redirects. */
  redirectToAuthorization(): never {
    throw this.#rejected();
  }

  /** Not used. */
  saveCodeVerifier(): void {}

  /** Not used. */
  codeVerifier(): never {
    throw this.#rejected();
  }

  #rejected(): OAuthError {
    return new OAuthError({
      code: 'GOOGLE_AUTH_FAILED',
      message: `MCP server '${this.serverName}' rejected the Google credentials; check the Application Default Credentials (gcloud auth application-default login), the scopes and the IAM permissions.`,
      serverName: this.serverName,
    });
  }
}
