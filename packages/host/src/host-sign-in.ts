import type { TransportOptions } from '@toolhost/discovery';
import {
  openBrowserSafely,
  type BearerChallenge,
  type FetchFunction,
  type OAuthWarning,
  type StoredTokenOAuthProvider,
  type TokenStore,
} from '@toolhost/oauth';
import { signIn, transportOptionsFor } from './host-auth.js';
import type { HostWarning } from './host-events.js';
import type { ResolvedServer } from './resolve-servers.js';
import { insufficientScopeChallenge, runWithStepUp } from './step-up.js';
import type { UiHooks } from '@toolhost/contract';

/** A warning of a sign-in, as the host's `warning` event carries it. */
function toHostWarning(warning: OAuthWarning): HostWarning {
  return { code: warning.code, message: warning.message, serverName: warning.serverName };
}

/** Options of {@link HostSignIn}. */
export interface HostSignInOptions {
  /** Every configured server, as it is now (servers change at runtime). */
  readonly servers: () => readonly ResolvedServer[];
  /** Where tokens are kept. */
  readonly tokenStore: TokenStore;
  /** The host's UI hooks (`openBrowser`). */
  readonly ui: UiHooks;
  /** Reports an authorization URL before the browser opens (the host's `auth-url` event). */
  readonly onAuthorizationUrl: (event: { readonly serverName: string; readonly url: string }) => void;
  /** Reports what the user should know about a sign-in, such as a look-alike authorization host (the host's `warning` event). */
  readonly onWarning: (warning: HostWarning) => void;
  /**
   * The command named in "sign in" hints, without the server name: `npx @toolhost/cli mcp auth`,
   * or `npx @toolhost/cli --app-dir <appDir> mcp auth` when the tokens are in another folder.
   */
  readonly authCommand: string;
  /** The host's `fetch` for remote servers' MCP requests (`McpToolHostOptions.fetch`). @default globalThis.fetch */
  readonly fetch?: FetchFunction | undefined;
  /** Environment read for `oauth.assertionEnv` of workload identity entries (`McpToolHostOptions.env`). @default process.env */
  readonly env?: Readonly<Record<string, string | undefined>> | undefined;
}

/**
 * The OAuth side of `McpToolHost`: each remote server's transport options (the stored-token
 * provider, kept to read its last challenge), sign-in, and step-up around user-initiated requests.
 */
export class HostSignIn {
  readonly #options: HostSignInOptions;
  readonly #storedTokenProviders = new Map<string, StoredTokenOAuthProvider>();
  /** Aborted by `close()`: cancels a sign-in a provider started by itself. */
  readonly #closing = new AbortController();

  /** Bind to the host's servers, token store and hooks. */
  constructor(options: HostSignInOptions) {
    this.#options = options;
  }

  /**
   * Transport options of one server (see `transportOptionsFor`); remembers its stored-token
   * provider. An entry with `oauth.enabled: true` may sign in without being asked (as
   * `discover()` does for it), so its provider also signs in by itself with a new authorization
   * server after the server moved to one, through `ui.openBrowser` (or the safe default opener),
   * announced by `sign-in-start`. Other entries then report `AUTH_REQUIRED`.
   */
  transportOptions(serverName: string): TransportOptions | undefined {
    const server = this.#server(serverName);
    const { ui } = this.#options;
    const migration =
      server?.config.oauth?.enabled === true
        ? {
            openBrowser: ui.openBrowser ? async (url: string) => ui.openBrowser?.(url) : openBrowserSafely,
            onAuthorizationUrl: (url: string) => this.#options.onAuthorizationUrl({ serverName, url }),
            onWarning: (warning: OAuthWarning) => this.#options.onWarning(toHostWarning(warning)),
            signal: this.#closing.signal,
          }
        : undefined;
    return transportOptionsFor({
      server,
      tokenStore: this.#options.tokenStore,
      authCommand: this.#options.authCommand,
      onStoredTokenProvider: (provider) => this.#storedTokenProviders.set(serverName, provider),
      fetch: this.#options.fetch,
      env: this.#options.env,
      ...(migration ? { migration } : {}),
    });
  }

  /** Cancels any sign-in a server's provider started by itself (see `transportOptions`). */
  close(): void {
    this.#closing.abort();
  }

  /** Run the browser sign-in of one server (see `signIn`). */
  signIn(
    serverName: string,
    options: { readonly signal?: AbortSignal | undefined; readonly challenge?: BearerChallenge | undefined },
  ): Promise<void> {
    const { ui } = this.#options;
    return signIn({
      serverName,
      servers: this.#options.servers(),
      tokenStore: this.#options.tokenStore,
      onAuthorizationUrl: (url) => this.#options.onAuthorizationUrl({ serverName, url }),
      onWarning: (warning) => this.#options.onWarning(toHostWarning(warning)),
      ...(ui.openBrowser ? { openBrowser: (url: string) => ui.openBrowser?.(url) } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.challenge ? { challenge: options.challenge } : {}),
      ...(this.#options.env ? { env: this.#options.env } : {}),
    });
  }

  /**
   * The server's last 401/403 challenge, as its OAuth provider recorded it: what a sign-in
   * starts from (its `resource_metadata`, and the `scope` to request; an `insufficient_scope`
   * one asks for the held scopes too).
   */
  lastChallenge(serverName: string): BearerChallenge | undefined {
    return this.#storedTokenProviders.get(serverName)?.lastChallenge;
  }

  /** Run a user-initiated request on a server with OAuth step-up (see `McpToolHost.callTool`). */
  withStepUp<T>(options: {
    readonly serverName: string;
    readonly what: string;
    readonly run: () => Promise<T>;
    readonly signal: AbortSignal | undefined;
  }): Promise<T> {
    const { serverName } = options;
    const server = this.#server(serverName);
    if (!server || server.transport.transport === 'stdio') return options.run();
    return runWithStepUp({
      serverName,
      what: options.what,
      run: options.run,
      challengeOf: (error) => insufficientScopeChallenge(error, this.#storedTokenProviders.get(serverName)?.lastChallenge),
      mayOpenBrowser: this.#options.ui.openBrowser !== undefined || server.config.oauth?.enabled === true,
      authCommand: this.#options.authCommand,
      reauthorize: async (challenge) => {
        await this.signIn(serverName, { signal: options.signal, challenge });
        // The provider reads the new token from the store on the next request; forget the old challenge.
        const provider = this.#storedTokenProviders.get(serverName);
        if (provider) provider.lastChallenge = undefined;
      },
    });
  }

  #server(serverName: string): ResolvedServer | undefined {
    return this.#options.servers().find((candidate) => candidate.name === serverName);
  }
}
