import type { AttachedClientFeatures, ConnectionClient, LoggingLevel, ResourceSubscriptions } from '@toolhost/connection';
import type { UiHooks } from '@toolhost/contract';
import type { McpServerManager } from '@toolhost/discovery';
import { HostError } from './host-error.js';
import type { HostEventEmitter, HostWarning } from './host-events.js';
import type { ResolvedServer } from './resolve-servers.js';

/**
 * The state a host and its groups (`servers`, `prompts`, `commands`, `resources`, ...) share:
 * the discovery layer, the events, the UI hooks, the configured servers and the client features of
 * each connection. It imports nothing of the groups, so that every group can import it. Internal.
 */
export class HostCore {
  /** The discovery layer. */
  readonly manager: McpServerManager<ConnectionClient>;
  /** The one emitter. */
  readonly events: HostEventEmitter;
  /** The UI hooks. */
  readonly ui: UiHooks;

  /** The client features attached to each server's current client. */
  readonly attached = new Map<string, { readonly client: ConnectionClient; readonly features: AttachedClientFeatures }>();
  /** Log levels set with `servers.setLogLevel`, by server (sent with every request on 2026-07-28). */
  readonly logLevels = new Map<string, LoggingLevel>();
  #servers: readonly ResolvedServer[];
  #serversByName: ReadonlyMap<string, ResolvedServer>;
  #warnings: readonly HostWarning[];
  #closed = false;

  constructor(fields: {
    readonly servers: readonly ResolvedServer[];
    readonly manager: McpServerManager<ConnectionClient>;
    readonly events: HostEventEmitter;
    readonly ui: UiHooks;
    readonly warnings: readonly HostWarning[];
  }) {
    this.#servers = fields.servers;
    this.#serversByName = new Map(fields.servers.map((server) => [server.name, server]));
    this.#warnings = fields.warnings;
    this.manager = fields.manager;
    this.events = fields.events;
    this.ui = fields.ui;
  }

  /** Every configured server, in settings order (servers added at runtime last). */
  get servers(): readonly ResolvedServer[] {
    return this.#servers;
  }

  /** The same, by name. */
  get serversByName(): ReadonlyMap<string, ResolvedServer> {
    return this.#serversByName;
  }

  /** What the host tells its user about its settings. */
  get warnings(): readonly HostWarning[] {
    return this.#warnings;
  }

  /** Replace the configured servers and the warnings (after a runtime change or a reload). */
  replaceServers(servers: readonly ResolvedServer[], warnings: readonly HostWarning[]): void {
    this.#servers = servers;
    this.#serversByName = new Map(servers.map((server) => [server.name, server]));
    this.#warnings = warnings;
  }

  /** Whether `close()` was called. */
  get closed(): boolean {
    return this.#closed;
  }

  /** Mark the host closed; later calls fail with `CLOSED`. */
  markClosed(): void {
    this.#closed = true;
  }

  /** @throws HostError `CLOSED` after `close()`. */
  assertOpen(): void {
    if (this.#closed) {
      throw new HostError({ code: 'CLOSED', message: 'This McpToolHost was closed; create a new one to use MCP servers again.' });
    }
  }

  /**
   * The client of a connected server.
   *
   * @throws HostError `SERVER_NOT_FOUND` when no server of that name is configured, `SERVER_NOT_CONNECTED` when it is not connected.
   */
  requireClient(serverName: string, what: string): ConnectionClient {
    const client = this.manager.getClient(serverName);
    if (client) return client;
    throw this.notConnected(serverName, what);
  }

  /**
   * Connect a server that a connection pool closed while it was idle (its tools stayed listed),
   * before a request that needs its client; nothing for any other server.
   *
   * @throws HostError `CONNECTION_POOL_FULL` when the pool had no place for it in time,
   * `SERVER_NOT_CONNECTED` when it could not connect for another reason (named in the message).
   */
  async resume(serverName: string): Promise<void> {
    if (!this.manager.isParked(serverName)) return;
    await this.manager.resume(serverName);
    if (this.manager.getClient(serverName)) return;
    const error = this.manager.getServer(serverName)?.lastError;
    throw new HostError({
      code: error?.causeCode === 'CONNECTION_POOL_FULL' ? 'CONNECTION_POOL_FULL' : 'SERVER_NOT_CONNECTED',
      serverName,
      message: error?.message ?? `MCP server "${serverName}" could not be started again; see /mcp for why.`,
    });
  }

  /** The error for a server that is not connected (or not configured). */
  notConnected(serverName: string, what: string): HostError {
    return this.serversByName.has(serverName)
      ? new HostError({
          code: 'SERVER_NOT_CONNECTED',
          serverName,
          message: `MCP server "${serverName}" is not connected, so the host cannot ${what}; see /mcp for why.`,
        })
      : new HostError({
          code: 'SERVER_NOT_FOUND',
          serverName,
          message: `No MCP server named "${serverName}" is configured, so the host cannot ${what}.`,
        });
  }

  /** The resource subscriptions of a connected server's current client. */
  subscriptions(serverName: string): ResourceSubscriptions | undefined {
    const attached = this.attached.get(serverName);
    return attached && this.manager.getClient(serverName) === attached.client ? attached.features.subscriptions : undefined;
  }
}
