import type { HostToolDefinition } from '@toolhost/contract';
import { McpServerStatus } from '@toolhost/discovery';
import { setLogLevel } from './client-features/index.js';
import { formatStatus } from './format-status.js';
import type { HostCore } from './host-core.js';
import type { LogLevel } from './host-events.js';
import type { FormatStatusOptions, HostStatus, ServerStatusView } from './host-status.js';
import { toToolDefinition } from './tool-call/callable-tool.js';

/** Instructions a server sent when connecting, for the host's system prompt. */
export interface ServerInstructions {
  /** The server. */
  readonly serverName: string;
  /** Its instructions (untrusted text). */
  readonly instructions: string;
}

/** Options of a request the host sends on the user's behalf. */
export interface RequestOptions {
  /** Aborts the request. */
  readonly signal?: AbortSignal;
}

/**
 * `host.servers`: the configured MCP servers, their status (the `/mcp` view), their tools, and
 * what can be done to one server (sign in, reconnect, log level).
 */
export class HostServers {
  readonly #core: HostCore;

  /** @internal */
  constructor(core: HostCore) {
    this.#core = core;
  }

  /** Every configured server with its status, in settings order (never `env` or header values). */
  list(): ServerStatusView[] {
    return [...this.#core.status().servers];
  }

  /** The `/mcp` view as data: every server, the discovery state and the host's warnings. */
  status(): HostStatus {
    return this.#core.status();
  }

  /** The `/mcp` view as text, as the seeds show it. */
  formatStatus(options: FormatStatusOptions = {}): string {
    return formatStatus(this.#core.status(), options);
  }

  /** The registered tools in the host's vendor-neutral form, optionally of one server only. */
  listTools(params: { readonly serverName?: string } = {}): HostToolDefinition[] {
    const tools = this.#core.manager.tools.list();
    return (params.serverName === undefined ? tools : tools.filter((tool) => tool.serverName === params.serverName)).map(toToolDefinition);
  }

  /** The `instructions` of every connected server that sent some. */
  instructions(): ServerInstructions[] {
    return this.#core.manager
      .listServers()
      .filter((server) => server.status === McpServerStatus.CONNECTED && server.instructions)
      .map((server) => ({ serverName: server.name, instructions: server.instructions ?? '' }));
  }

  /**
   * Sign in to a remote server with OAuth (what `/mcp auth <server>` runs): discovery, client
   * registration, PKCE, the browser through `ui.openBrowser` (or the safe default opener), the
   * loopback callback; the token is stored and the server is connected again. The server's last
   * 401/403 challenge is where the flow starts: the scope it named is requested (for a 403
   * `insufficient_scope`, together with the scopes already held), and its `resource_metadata`
   * is used; without one the server is asked for it.
   *
   * @throws HostError `SERVER_NOT_FOUND` (unknown or local server); `OAuthError` when sign-in fails.
   */
  async authenticate(params: { readonly serverName: string }, options: RequestOptions = {}): Promise<HostStatus> {
    this.#core.assertOpen();
    const { serverName } = params;
    await this.#core.auth.signIn(serverName, { signal: options.signal, challenge: this.#core.auth.lastChallenge(serverName) });
    await this.#core.manager.reconnect(serverName);
    return this.#core.status();
  }

  /**
   * Close a server's connection (if any), then connect and discover it again.
   *
   * @throws HostError `SERVER_NOT_FOUND` when no server of that name is configured.
   */
  async reconnect(params: { readonly serverName: string }, _options: RequestOptions = {}): Promise<ServerStatusView> {
    this.#core.assertOpen();
    if (!this.#core.serversByName.has(params.serverName)) throw this.#core.notConnected(params.serverName, 'reconnect it');
    await this.#core.manager.reconnect(params.serverName);
    const view = this.#core.status().servers.find((server) => server.name === params.serverName);
    if (!view) throw this.#core.notConnected(params.serverName, 'reconnect it');
    return view;
  }

  /**
   * Set the level of the log messages a server sends; they arrive as `server-log` events. On MCP
   * 2026-07-28 the level goes with every later request to that server (`_meta`); on older revisions
   * it is sent once (`logging/setLevel`).
   *
   * @throws HostError `SERVER_NOT_FOUND`, `SERVER_NOT_CONNECTED`, or `CAPABILITY_NOT_SUPPORTED` when the server has no logging.
   */
  async setLogLevel(params: { readonly serverName: string; readonly level: LogLevel }, _options: RequestOptions = {}): Promise<void> {
    this.#core.assertOpen();
    const { serverName, level } = params;
    await setLogLevel(this.#core.requireClient(serverName, 'set its log level'), { serverName, level });
    this.#core.logLevels.set(serverName, level);
  }
}
