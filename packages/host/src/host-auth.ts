import {
  authenticate,
  createAuthProvider,
  InMemoryTokenStore,
  StoredTokenOAuthProvider,
  type BearerChallenge,
  type FetchFunction,
  type OAuthWarningListener,
  type OpenBrowser,
  type TokenStore,
} from '@toolhost/oauth';
import { FileTokenStore } from '@toolhost/oauth/token-files';
import { HostError } from './host-error.js';
import type { TransportOptions } from '@toolhost/discovery';
import type { ResolvedServer, SettingsSource } from './resolve-servers.js';

/**
 * The token store a host uses when none is given: a file at `~/<appDir>/mcp-oauth-tokens.json`
 * (mode 0600) when the settings come from files, since that is where the user's other settings
 * live; in memory when the settings were passed in directly (tests, embedded hosts). With
 * `appDir` `.gemini` or `.qwen` the file is read and written in Gemini CLI's or Qwen Code's
 * layout (their encrypted file when the source's environment switches it on), so the tokens stay
 * shared with them (see `FileTokenStore`).
 */
export function defaultTokenStore(source: SettingsSource): TokenStore {
  if (source.settings) return new InMemoryTokenStore();
  return new FileTokenStore({
    ...(source.appDir !== undefined ? { appDir: source.appDir } : {}),
    ...(source.homeDir !== undefined ? { homeDir: source.homeDir } : {}),
    ...(source.env !== undefined ? { env: source.env } : {}),
  });
}

/**
 * Transport options of one server: the OAuth provider of every remote server. The provider uses
 * a stored token (refreshing it when it can) and never starts a browser flow by itself: without
 * a usable token a 401 makes it throw `OAuthError` `AUTH_REQUIRED`, which the transport and
 * discovery keep as the error's code, so the host reports that the server needs the user to
 * sign in (`/mcp auth <server>`). A stored-token provider also sees every 401/403 through its
 * `wrapFetch`, so its `lastChallenge` holds the server's last `WWW-Authenticate` challenge (the
 * scope a step-up needs); `onStoredTokenProvider` hands it to the host.
 *
 * The one exception is `migration`: given for an entry that may sign in by itself, it lets the
 * provider sign in with the new authorization server when the server moved to one (a 401 whose
 * protected-resource metadata names another issuer than the stored credentials'), so the request
 * goes through instead of failing with `AUTH_REQUIRED`.
 */
export function transportOptionsFor(options: {
  readonly server: ResolvedServer | undefined;
  readonly tokenStore: TokenStore;
  /** The command named in "sign in" hints, without the server name. @default 'toolhost mcp auth' */
  readonly authCommand?: string;
  readonly onStoredTokenProvider?: (provider: StoredTokenOAuthProvider) => void;
  /** The host's `fetch` for the server's MCP requests (see `McpToolHostOptions.fetch`). @default globalThis.fetch */
  readonly fetch?: FetchFunction | undefined;
  /** Environment read for `oauth.assertionEnv` (workload identity). @default process.env */
  readonly env?: Readonly<Record<string, string | undefined>> | undefined;
  readonly migration?: {
    /** Opens the authorization URL of the new authorization server. */
    readonly openBrowser: OpenBrowser;
    /** Announces that URL before the browser opens. */
    readonly onAuthorizationUrl: (url: string) => void;
    /** Reports a look-alike authorization host of such a sign-in (the host's `warning` event). */
    readonly onWarning?: OAuthWarningListener;
    /** Cancels such a sign-in (the host closing). */
    readonly signal: AbortSignal;
  };
}): TransportOptions | undefined {
  const { server, tokenStore, migration, fetch } = options;
  if (!server || server.transport.transport === 'stdio') return undefined;
  const authProvider = createAuthProvider({
    serverName: server.name,
    config: server.config,
    tokenStore,
    ...(options.authCommand !== undefined ? { authCommand: options.authCommand } : {}),
    ...(options.env ? { env: options.env } : {}),
    ...(migration ?? {}),
  });
  if (!(authProvider instanceof StoredTokenOAuthProvider)) return { authProvider, ...(fetch ? { fetch } : {}) };
  options.onStoredTokenProvider?.(authProvider);
  return { authProvider, fetch: authProvider.wrapFetch(fetch) };
}

/** True when a server's last error says it needs the user to sign in. */
export function needsAuthentication(error: { code: string; causeCode?: string | undefined } | undefined): boolean {
  return error?.code === 'AUTH_REQUIRED' || error?.causeCode === 'AUTH_REQUIRED';
}

/** Options of {@link signIn}. */
export interface SignInOptions {
  /** The server to sign in to. */
  readonly serverName: string;
  /** Every configured server. */
  readonly servers: readonly ResolvedServer[];
  /** Where the token goes. */
  readonly tokenStore: TokenStore;
  /** Called with the authorization URL before the browser opens. */
  readonly onAuthorizationUrl: (url: string) => void;
  /** Called with what the user should know about the sign-in (a look-alike authorization host), before the browser opens. */
  readonly onWarning?: OAuthWarningListener;
  /** The host's browser opener. @default the safe default opener of `@toolhost/oauth` */
  readonly openBrowser?: OpenBrowser;
  /** Cancels the flow. */
  readonly signal?: AbortSignal;
  /** The server's 401/403 challenge; an `insufficient_scope` one asks for the held plus the challenged scopes (step-up). */
  readonly challenge?: BearerChallenge;
  /** Environment read for `oauth.assertionEnv` (workload identity). @default process.env */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/**
 * Run the OAuth flow of `@toolhost/oauth` for one remote server and store the token.
 *
 * @throws HostError `SERVER_NOT_FOUND` for an unknown or stdio server; `OAuthError` when sign-in fails.
 */
export async function signIn(options: SignInOptions): Promise<void> {
  const { serverName } = options;
  const server = options.servers.find((candidate) => candidate.name === serverName);
  if (!server || server.transport.transport === 'stdio') {
    throw new HostError({
      code: 'SERVER_NOT_FOUND',
      serverName,
      message: server
        ? `MCP server "${serverName}" is a local (stdio) server; OAuth applies to remote servers only.`
        : `No MCP server named "${serverName}" is configured.`,
    });
  }
  await authenticate(serverName, server.config, {
    tokenStore: options.tokenStore,
    onAuthorizationUrl: options.onAuthorizationUrl,
    ...(options.onWarning ? { onWarning: options.onWarning } : {}),
    ...(options.openBrowser ? { openBrowser: options.openBrowser } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.challenge ? { challenge: options.challenge } : {}),
    ...(options.env ? { env: options.env } : {}),
  });
}
