import type { OAuthClientProvider } from '@modelcontextprotocol/client';
import type { McpServerConfig } from '@toolhost/config';
import { GoogleCredentialProvider } from './google-credential-provider.js';
import type { GoogleAuthLike } from './google-auth-client.js';
import type { FetchFunction } from './guarded-fetch.js';
import type { OAuthWarningListener } from './oauth-warning.js';
import type { OpenBrowser } from './open-browser.js';
import type { ApplicationType } from './register-client.js';
import { ServiceAccountImpersonationProvider } from './service-account-impersonation-provider.js';
import { StoredTokenOAuthProvider } from './stored-token-provider.js';
import type { TokenStore } from './token-store.js';

/** Options of {@link createAuthProvider}. */
export interface CreateAuthProviderOptions {
  /** Name of the server entry. */
  serverName: string;
  /** The server entry. */
  config: McpServerConfig;
  /** Token store of the dynamic-discovery provider. */
  tokenStore: TokenStore;
  /**
   * HTTP client for the stored-token provider's own requests (refresh, renewal, migration). A
   * custom `fetch` resolves host names itself, so the URL guard cannot pin its connections to the
   * addresses it vetted (see `StoredTokenOAuthProviderOptions.fetch`). @default the provider's default
   */
  fetch?: FetchFunction;
  /** google-auth-library entry point for the Google providers. @default new GoogleAuth(...) */
  googleAuth?: GoogleAuthLike;
  /** The enterprise IdP's ID token (or a function returning it), so `enterprise_managed` tokens renew without the user. */
  idpIdToken?: string | (() => Promise<string>);
  /** Environment read for `oauth.assertionEnv` of a `jwt_bearer` (workload identity) entry. @default process.env */
  env?: Readonly<Record<string, string | undefined>>;
  /**
   * The host's browser hook, for the one sign-in the stored-token provider may start itself: with
   * the new authorization server after the MCP server moved to it (see {@link StoredTokenOAuthProvider}).
   * Pass it only when the host may open a browser without the user asking.
   */
  openBrowser?: OpenBrowser;
  /** Called with the authorization URL of such a sign-in before the browser opens. */
  onAuthorizationUrl?: (url: string) => void;
  /** Told about a look-alike authorization host during such a sign-in (see `onWarning` of `authenticate`). */
  onWarning?: OAuthWarningListener;
  /** `application_type` of a client the stored-token provider registers. @default `native` for a loopback redirect URI */
  applicationType?: ApplicationType;
  /** Cancels a sign-in the stored-token provider started (see `openBrowser`), for example when the host closes. */
  signal?: AbortSignal;
  /**
   * The command that signs in, named in the stored-token provider's messages (the server name is
   * appended), e.g. `toolhost --app-dir .gemini mcp auth`. @default 'toolhost mcp auth'
   */
  authCommand?: string;
}

/**
 * The SDK `authProvider` for a remote server entry, chosen by `authProviderType`:
 * {@link GoogleCredentialProvider}, {@link ServiceAccountImpersonationProvider}, or (the default,
 * `dynamic_discovery`) a {@link StoredTokenOAuthProvider} that never starts a browser flow itself.
 */
export function createAuthProvider(
  options: CreateAuthProviderOptions,
): StoredTokenOAuthProvider | GoogleCredentialProvider | ServiceAccountImpersonationProvider {
  const { serverName, config } = options;
  switch (config.authProviderType) {
    case 'google_credentials':
      return new GoogleCredentialProvider({ serverName, config, auth: options.googleAuth });
    case 'service_account_impersonation':
      return new ServiceAccountImpersonationProvider({ serverName, config, auth: options.googleAuth });
    default:
      return new StoredTokenOAuthProvider({
        serverName,
        config,
        tokenStore: options.tokenStore,
        ...(options.fetch ? { fetch: options.fetch } : {}),
        ...(options.idpIdToken !== undefined ? { idpIdToken: options.idpIdToken } : {}),
        ...(options.env ? { env: options.env } : {}),
        ...(options.openBrowser ? { openBrowser: options.openBrowser } : {}),
        ...(options.onAuthorizationUrl ? { onAuthorizationUrl: options.onAuthorizationUrl } : {}),
        ...(options.onWarning ? { onWarning: options.onWarning } : {}),
        ...(options.applicationType ? { applicationType: options.applicationType } : {}),
        ...(options.signal ? { signal: options.signal } : {}),
        ...(options.authCommand !== undefined ? { authCommand: options.authCommand } : {}),
      });
  }
}

/** Any provider {@link createAuthProvider} returns, as an SDK `OAuthClientProvider`. */
export type AnyAuthProvider = ReturnType<typeof createAuthProvider> & OAuthClientProvider;
