import type { OAuthClientProvider, OAuthTokens } from '@modelcontextprotocol/client';
import type { McpServerConfig } from '@toolhost/config';
import { createGoogleAuth, GoogleProviderBase, type GoogleAuthLike } from './google-auth-client.js';
import { OAuthError } from './oauth-error.js';

/** The IAM Credentials API endpoint that mints an ID token for a service account. */
export function generateIdTokenUrl(serviceAccount: string): string {
  return `https://iamcredentials.googleapis.com/v1/projects/-/serviceAccounts/${encodeURIComponent(serviceAccount)}:generateIdToken`;
}

/** Options of {@link ServiceAccountImpersonationProvider}. */
export interface ServiceAccountImpersonationProviderOptions {
  /** Name of the server entry. */
  serverName: string;
  /** The server entry (`authProviderType: service_account_impersonation`, `targetAudience`, `targetServiceAccount`). */
  config: McpServerConfig;
  /** google-auth-library entry point. @default new GoogleAuth({ scopes: cloud-platform }) */
  auth?: GoogleAuthLike;
  /** Clock. @default Date.now */
  now?: () => number;
}

function jwtExpiry(token: string): number | undefined {
  try {
    const payload = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as { exp?: unknown };
    return typeof payload.exp === 'number' ? payload.exp * 1000 : undefined;
  } catch {
    return undefined;
  }
}

/**
 * `authProviderType: service_account_impersonation`: asks the IAM Credentials API for an ID
 * token of `targetServiceAccount` with audience `targetAudience` (e.g. an IAP client id) and
 * sends it as the bearer token; cached until 5 minutes before its `exp`.
 */
export class ServiceAccountImpersonationProvider extends GoogleProviderBase implements OAuthClientProvider {
  /** Name of the server entry. */
  protected readonly serverName: string;
  readonly #audience: string;
  readonly #serviceAccount: string;
  #auth: GoogleAuthLike | undefined;

  readonly #options: ServiceAccountImpersonationProviderOptions;

  /** Validates the entry; throws `OAuthError` `INVALID_CONFIG` when a field is missing. */
  constructor(options: ServiceAccountImpersonationProviderOptions) {
    super();
    this.#options = options;
    this.serverName = options.serverName;
    const { config } = options;
    const missing = [
      !(config.httpUrl ?? config.url) && 'url or httpUrl',
      !config.targetAudience && 'targetAudience',
      !config.targetServiceAccount && 'targetServiceAccount',
    ].filter(Boolean);
    if (missing.length > 0) {
      throw new OAuthError({
        code: 'INVALID_CONFIG',
        message: `MCP server '${options.serverName}' uses authProviderType service_account_impersonation but has no ${missing.join(', ')}.`,
        serverName: options.serverName,
      });
    }
    this.#audience = config.targetAudience!;
    this.#serviceAccount = config.targetServiceAccount!;
    this.#auth = options.auth;
  }

  /**
   * An ID token of the impersonated service account, as the bearer token.
   * @throws OAuthError `PACKAGE_NOT_INSTALLED` when google-auth-library (an optional peer dependency) is not installed,
   * `GOOGLE_AUTH_FAILED` when the credentials give no token.
   */
  async tokens(): Promise<OAuthTokens> {
    const now = (this.#options.now ?? Date.now)();
    const cached = this.cachedTokens(now);
    if (cached) return cached;
    // Outside the try: a missing google-auth-library is PACKAGE_NOT_INSTALLED, not a credentials problem.
    this.#auth ??= await createGoogleAuth(['https://www.googleapis.com/auth/cloud-platform'], {
      serverName: this.serverName,
      authProviderType: 'service_account_impersonation',
    });
    try {
      const client = await this.#auth.getClient();
      const response = await client.request<{ token?: string }>({
        url: generateIdTokenUrl(this.#serviceAccount),
        method: 'POST',
        data: { audience: this.#audience, includeEmail: true },
      });
      const token = response.data.token;
      if (!token) throw new Error('the IAM Credentials API returned no token');
      return this.bearerTokens(token, jwtExpiry(token), now);
    } catch (error) {
      throw new OAuthError({
        code: 'GOOGLE_AUTH_FAILED',
        message: `Could not impersonate ${this.#serviceAccount} for MCP server '${this.serverName}': ${(error as Error).message}. The caller needs roles/iam.serviceAccountTokenCreator on it.`,
        serverName: this.serverName,
        cause: error,
      });
    }
  }
}
