import type { McpServerConfig } from '@toolhost/config';
import type { HostToolDefinition } from '@toolhost/contract';
import { setLogLevel } from '@toolhost/connection';
import { DiscoveryError, McpServerStatus } from '@toolhost/discovery';
import { buildStatus } from './build-status.js';
import { promptCommands, skillCommands } from './command-lists.js';
import { formatStatus } from './format-status.js';
import type { HostCore } from './host-core.js';
import { withHostErrors } from './host-error-from.js';
import type { LogLevel } from './host-events.js';
import type { HostServerSet } from './host-server-set.js';
import type { HostSignIn } from './host-sign-in.js';
import type { FormatStatusOptions, HostStatus, ServerStatusView } from './host-status.js';
import type { RequestOptions } from './request-options.js';
import type { SettingsReloadResult } from './settings-reload-result.js';
import { toToolDefinition } from './tool-call/callable-tool.js';

/** Instructions a server sent when connecting, for the host's system prompt. */
export interface ServerInstructions {
  /** The server. */
  readonly serverName: string;
  /** Its instructions (untrusted text). */
  readonly instructions: string;
}

/**
 * `host.servers`: the configured MCP servers, their status (the `/mcp` view), their tools, what
 * can be done to one server (sign in, reconnect, log level), and changes at runtime (add, remove,
 * reload the settings files, refresh, enable, disable).
 */
export class HostServers {
  readonly #core: HostCore;
  readonly #set: HostServerSet;
  readonly #auth: HostSignIn;

  /** @internal */
  constructor(core: HostCore, set: HostServerSet, auth: HostSignIn) {
    this.#core = core;
    this.#set = set;
    this.#auth = auth;
  }

  /** Every configured server with its status, in settings order (never `env` or header values). */
  list(): ServerStatusView[] {
    return [...this.status().servers];
  }

  /** The `/mcp` view as data: every server, the discovery state and the host's warnings. */
  status(): HostStatus {
    const { manager } = this.#core;
    const prompts = promptCommands(manager);
    return buildStatus({
      discoveryState: manager.getDiscoveryState(),
      servers: this.#core.servers,
      snapshots: manager.listServers(),
      tools: manager.tools.list(),
      prompts,
      skills: skillCommands(manager, prompts),
      warnings: this.#core.warnings,
    });
  }

  /** The `/mcp` view as text, as the seeds show it. */
  formatStatus(options: FormatStatusOptions = {}): string {
    return formatStatus(this.status(), options);
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
    await this.#auth.signIn(serverName, { signal: options.signal, challenge: this.#auth.lastChallenge(serverName) });
    await this.#core.manager.reconnect(serverName);
    return this.status();
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
    const view = this.status().servers.find((server) => server.name === params.serverName);
    if (!view) throw this.#core.notConnected(params.serverName, 'reconnect it');
    return view;
  }

  /**
   * Add a server while the host runs, for the rest of its life (no settings file is written). The
   * entry is checked and `$VAR`-expanded like a settings file entry; `mcp.allowed`, `mcp.excluded`
   * and the enablement file apply to it. Once `discover()` has run, the server is connected and
   * its tools registered before this resolves (a failure is in its status, as for any server);
   * before that, `discover()` connects it with the others. It comes last in naming priority.
   *
   * @example
   * ```ts
   * await host.servers.add({ serverName: 'notes', config: { command: 'node', args: ['notes-server.js'] } });
   * ```
   * @throws HostError `DUPLICATE_SERVER_NAME` when a server of that name is configured; `INVALID_CONFIG` when the entry is not valid.
   */
  async add(
    params: { readonly serverName: string; readonly config: McpServerConfig },
    _options: RequestOptions = {},
  ): Promise<ServerStatusView> {
    this.#core.assertOpen();
    await this.#set.add(params.serverName, params.config);
    return this.#view(params.serverName, 'add it');
  }

  /**
   * Remove a server while the host runs: its connection closes (a stdio server's process ends)
   * and its tools, prompts and resources are gone before this resolves. No settings file is
   * written; a server from the settings files stays removed for the rest of the host's life, even
   * when the settings are reloaded (add it again to bring it back).
   *
   * @throws HostError `SERVER_NOT_FOUND` when no server of that name is configured.
   */
  async remove(params: { readonly serverName: string }, _options: RequestOptions = {}): Promise<void> {
    this.#core.assertOpen();
    await this.#set.remove(params.serverName);
  }

  /**
   * Read the settings files again (what `/mcp reload` runs, and what `watchSettings` runs after a
   * change) and apply what changed: new servers connect, removed ones disconnect, servers whose
   * entry changed reconnect, and servers whose entry did not change keep their connection. Folder
   * trust applies as at start-up: a project server whose entry changed since the folder was
   * trusted is blocked (`CHANGED_SINCE_TRUSTED`), never started. A file that was fine and is now
   * malformed or unreadable (an edit in progress) changes nothing: the last good settings stay and
   * a `warning` names the file. With the `settings` option nothing is read again.
   */
  async reload(_options: RequestOptions = {}): Promise<SettingsReloadResult> {
    this.#core.assertOpen();
    return this.#set.reload();
  }

  /**
   * Discover one server, or every server, again (what `/mcp refresh` runs). A connected server
   * lists its tools, prompts and resources again over its live connection (the session and the
   * process stay); a server that is not connected, or whose lists fail, is disconnected and
   * connected again. With `restart: true`, every target is restarted, as Gemini CLI's
   * `/mcp refresh` does. Disabled and blocked servers are left alone.
   *
   * @throws HostError `SERVER_NOT_FOUND` when no server of that name is configured.
   */
  async refresh(
    params: { readonly serverName?: string; readonly restart?: boolean } = {},
    _options: RequestOptions = {},
  ): Promise<HostStatus> {
    this.#core.assertOpen();
    try {
      await this.#core.manager.refresh({ serverName: params.serverName, restart: params.restart });
    } catch (error) {
      if (DiscoveryError.isInstance(error) && error.code === 'SERVER_NOT_FOUND' && params.serverName !== undefined) {
        throw this.#core.notConnected(params.serverName, 'refresh it');
      }
      throw error;
    }
    return this.status();
  }

  /**
   * Enable a server and connect it (what `/mcp enable` runs). By default the enablement file
   * (`~/<appDir>/mcp-server-enablement.json`) no longer records it as disabled; with
   * `session: true` it is enabled for this host only, whatever the file says, and no file is
   * written. Names are compared as the file does: letter case and surrounding spaces do not matter.
   *
   * @throws HostError `SERVER_NOT_FOUND`; `SERVER_BLOCKED` when `mcp.allowed`, `mcp.excluded` or
   * folder trust blocks it; `INVALID_OPTIONS` when saving is asked of a host given the `settings` option.
   */
  async enable(
    params: { readonly serverName: string; readonly session?: boolean },
    _options: RequestOptions = {},
  ): Promise<ServerStatusView> {
    this.#core.assertOpen();
    const name = await this.#set.setEnabled({ serverName: params.serverName, enabled: true, session: params.session === true });
    return this.#view(name, 'enable it');
  }

  /**
   * Disable a server and disconnect it (what `/mcp disable` runs): its process ends and its tools
   * are gone. By default the enablement file records it as `{ "enabled": false }` under its
   * normalized name (Gemini CLI's format), so it stays off in later sessions; with `session: true`
   * it is disabled for this host only and no file is written.
   *
   * @throws HostError `SERVER_NOT_FOUND`; `INVALID_OPTIONS` when saving is asked of a host given the `settings` option.
   */
  async disable(
    params: { readonly serverName: string; readonly session?: boolean },
    _options: RequestOptions = {},
  ): Promise<ServerStatusView> {
    this.#core.assertOpen();
    const name = await this.#set.setEnabled({ serverName: params.serverName, enabled: false, session: params.session === true });
    return this.#view(name, 'disable it');
  }

  #view(serverName: string, what: string): ServerStatusView {
    const view = this.status().servers.find((server) => server.name === serverName);
    if (!view) throw this.#core.notConnected(serverName, what);
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
    const client = this.#core.requireClient(serverName, 'set its log level');
    await withHostErrors(() => setLogLevel(client, { serverName, level }));
    this.#core.logLevels.set(serverName, level);
  }
}
