import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/client';
import type * as GoogleAuthLibrary from 'google-auth-library';
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

/** The authProviderType values served by google-auth-library. */
export type GoogleAuthProviderType = 'google_credentials' | 'service_account_impersonation';

/**
 * Creates `new GoogleAuth({ scopes })` from google-auth-library, loaded on first use. The library
 * is an optional peer dependency of this package (it and its dependencies weigh about 12 MB, and
 * only the Google providers need it): when it cannot be loaded, this throws `OAuthError`
 * `PACKAGE_NOT_INSTALLED` naming the server and the package to install.
 */
export async function createGoogleAuth(
  scopes: readonly string[],
  server: { readonly serverName: string; readonly authProviderType: GoogleAuthProviderType },
): Promise<GoogleAuthLike> {
  let library: typeof GoogleAuthLibrary;
  try {
    library = await import('google-auth-library');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException | undefined)?.code;
    if (code !== 'ERR_MODULE_NOT_FOUND' && code !== 'MODULE_NOT_FOUND') throw error;
    throw new OAuthError({
      code: 'PACKAGE_NOT_INSTALLED',
      message:
        `MCP server '${server.serverName}' uses authProviderType ${server.authProviderType}, which needs the package ` +
        'google-auth-library, and it could not be loaded. Install google-auth-library next to @toolhost/oauth ' +
        '(npm install google-auth-library); it is an optional peer dependency, installed only by applications that use Google credentials.',
      serverName: server.serverName,
      cause: error,
    });
  }
  return new library.GoogleAuth({ scopes: [...scopes] }) as unknown as GoogleAuthLike;
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
