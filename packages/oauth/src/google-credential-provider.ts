import type { OAuthClientProvider, OAuthTokens } from '@modelcontextprotocol/client';
import type { McpServerConfig } from '@toolhost/config';
import { createGoogleAuth, GoogleProviderBase, type GoogleAuthLike } from './google-auth-client.js';
import { OAuthError } from './oauth-error.js';

/** Hosts a Google access token may be sent to. */
export const GOOGLE_CREDENTIALS_ALLOWED_HOSTS: readonly RegExp[] = [/^.+\.googleapis\.com$/, /^(.*\.)?luci\.app$/, /^.+\.run\.app$/];

/** Options of {@link GoogleCredentialProvider}. */
export interface GoogleCredentialProviderOptions {
  /** Name of the server entry. */
  serverName: string;
  /** The server entry (`authProviderType: google_credentials`, `oauth.scopes` required). */
  config: McpServerConfig;
  /** google-auth-library entry point. @default new GoogleAuth({ scopes }) */
  auth?: GoogleAuthLike;
  /** Clock. @default Date.now */
  now?: () => number;
}

/**
 * `authProviderType: google_credentials`: Application Default Credentials through
 * google-auth-library, for Google-hosted MCP servers (`*.googleapis.com`, `*.run.app`, `luci.app`).
 * The token is cached until 5 minutes before its expiry.
 */
export class GoogleCredentialProvider extends GoogleProviderBase implements OAuthClientProvider {
  /** Name of the server entry. */
  protected readonly serverName: string;
  readonly #scopes: string[];
  #auth: GoogleAuthLike | undefined;
  #quotaProjectId: string | undefined;

  readonly #options: GoogleCredentialProviderOptions;

  /** Validates the entry; throws `OAuthError` `INVALID_CONFIG` when the URL or the scopes are unusable. */
  constructor(options: GoogleCredentialProviderOptions) {
    super();
    this.#options = options;
    this.serverName = options.serverName;
    const url = options.config.httpUrl ?? options.config.url;
    if (!url) throw this.#configError('has no url or httpUrl');
    const host = new URL(url).hostname;
    if (!GOOGLE_CREDENTIALS_ALLOWED_HOSTS.some((pattern) => pattern.test(host))) {
      throw this.#configError(
        `is at ${host}, which is not a Google host (*.googleapis.com, *.run.app, luci.app); Google credentials are not sent there`,
      );
    }
    this.#scopes = options.config.oauth?.scopes ?? [];
    if (this.#scopes.length === 0) throw this.#configError('has no oauth.scopes; google_credentials needs the scopes to request');
    this.#auth = options.auth;
  }

  /**
   * An access token from Application Default Credentials.
   * @throws OAuthError `PACKAGE_NOT_INSTALLED` when google-auth-library (an optional peer dependency) is not installed,
   * `GOOGLE_AUTH_FAILED` when the credentials give no token.
   */
  async tokens(): Promise<OAuthTokens> {
    const now = (this.#options.now ?? Date.now)();
    const cached = this.cachedTokens(now);
    if (cached) return cached;
    // Outside the try: a missing google-auth-library is PACKAGE_NOT_INSTALLED, not a credentials problem.
    this.#auth ??= await createGoogleAuth(this.#scopes, { serverName: this.serverName, authProviderType: 'google_credentials' });
    try {
      const client = await this.#auth.getClient();
      const { token } = await client.getAccessToken();
      if (!token) throw new Error('no access token was returned');
      this.#quotaProjectId = client.quotaProjectId;
      return this.bearerTokens(token, client.credentials?.expiry_date ?? undefined, now);
    } catch (error) {
      throw new OAuthError({
        code: 'GOOGLE_AUTH_FAILED',
        message: `Could not get a Google access token for MCP server '${this.serverName}': ${(error as Error).message}. Run "gcloud auth application-default login" or set GOOGLE_APPLICATION_CREDENTIALS.`,
        serverName: this.serverName,
        cause: error,
      });
    }
  }

  /**
   * Extra headers for the transport: `X-Goog-User-Project` with the credentials' quota project,
   * unless the entry's `headers` already set it (any case). Call after `tokens()`.
   */
  getRequestHeaders(): Record<string, string> {
    const configured = Object.keys(this.#options.config.headers ?? {}).some((k) => k.toLowerCase() === 'x-goog-user-project');
    return this.#quotaProjectId && !configured ? { 'X-Goog-User-Project': this.#quotaProjectId } : {};
  }

  #configError(problem: string): OAuthError {
    return new OAuthError({
      code: 'INVALID_CONFIG',
      message: `MCP server '${this.#options.serverName}' uses authProviderType google_credentials but ${problem}.`,
      serverName: this.#options.serverName,
    });
  }
}
