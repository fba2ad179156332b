import type { TransportOptions } from '@toolhost/discovery';
import type { BearerChallenge, StoredTokenOAuthProvider, TokenStore } from '@toolhost/oauth';
import { signIn, transportOptionsFor } from './host-auth.js';
import type { ResolvedServer } from './resolve-servers.js';
import { insufficientScopeChallenge, runWithStepUp } from './step-up.js';
import type { UiHooks } from '@toolhost/contract';

/** Options of {@link HostSignIn}. */
export interface HostSignInOptions {
  /** Every configured server. */
  readonly servers: readonly ResolvedServer[];
  /** Where tokens are kept. */
  readonly tokenStore: TokenStore;
  /** The host's UI hooks (`openBrowser`). */
  readonly ui: UiHooks;
  /** Reports an authorization URL before the browser opens (the host's `auth-url` event). */
  readonly onAuthorizationUrl: (event: { readonly serverName: string; readonly url: string }) => void;
}

/**
 * The OAuth side of `McpToolHost`: each remote server's transport options (the stored-token
 * provider, kept to read its last challenge), sign-in, and step-up around user-initiated requests.
 */
export class HostSignIn {
  readonly #options: HostSignInOptions;
  readonly #storedTokenProviders = new Map<string, StoredTokenOAuthProvider>();

  /** Bind to the host's servers, token store and hooks. */
  constructor(options: HostSignInOptions) {
    this.#options = options;
  }

  /** Transport options of one server (see `transportOptionsFor`); remembers its stored-token provider. */
  transportOptions(serverName: string): TransportOptions | undefined {
    return transportOptionsFor({
      server: this.#server(serverName),
      tokenStore: this.#options.tokenStore,
      onStoredTokenProvider: (provider) => this.#storedTokenProviders.set(serverName, provider),
    });
  }

  /** Run the browser sign-in of one server (see `signIn`). */
  signIn(
    serverName: string,
    options: { readonly signal?: AbortSignal | undefined; readonly challenge?: BearerChallenge | undefined },
  ): Promise<void> {
    const { ui } = this.#options;
    return signIn({
      serverName,
      servers: this.#options.servers,
      tokenStore: this.#options.tokenStore,
      onAuthorizationUrl: (url) => this.#options.onAuthorizationUrl({ serverName, url }),
      ...(ui.openBrowser ? { openBrowser: (url: string) => ui.openBrowser?.(url) } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.challenge ? { challenge: options.challenge } : {}),
    });
  }

  /** The server's last `insufficient_scope` challenge, as its OAuth provider recorded it. */
  stepUpChallenge(serverName: string): BearerChallenge | undefined {
    const challenge = this.#storedTokenProviders.get(serverName)?.lastChallenge;
    return challenge?.error === 'insufficient_scope' ? challenge : undefined;
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
      reauthorize: async (challenge) => {
        await this.signIn(serverName, { signal: options.signal, challenge });
        // The provider reads the new token from the store on the next request; forget the old challenge.
        const provider = this.#storedTokenProviders.get(serverName);
        if (provider) provider.lastChallenge = undefined;
      },
    });
  }

  #server(serverName: string): ResolvedServer | undefined {
    return this.#options.servers.find((candidate) => candidate.name === serverName);
  }
}
