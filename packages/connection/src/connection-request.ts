import type { Client } from '@modelcontextprotocol/client';
import type { ConnectClientOptions, OpenedConnection } from './connect-client.js';

/**
 * One connection a connection source (the `openConnection` option of `@toolhost/discovery`'s
 * manager, such as a connection pool) is asked to open: the server, its entry, the manager's fresh
 * client for it (connect it, or close it on failure), the timeout, the signal that cancels the
 * attempt and the transport options.
 */
export interface ConnectionRequest<TClient extends Client = Client> extends ConnectClientOptions {
  /** The manager's fresh client for this connection (made by its `createClient`). */
  readonly client: TClient;
  /**
   * Close this connection on purpose because its source needs the room (a connection pool that
   * evicts an idle process): the server is parked, its status `DISCONNECTED` with `reason` as its
   * error (code `CLOSED_BY_POOL`), its tools, prompts and resources stay registered, and it
   * connects again on its next use (see `McpServerManager.resume`); nothing reconnects it
   * in the background. Resolves `false`, and does nothing, when the server is not connected over
   * this connection right now (still discovering, or already gone).
   */
  readonly park: (reason: string) => Promise<boolean>;
}

/**
 * Where a manager's connections come from: given a {@link ConnectionRequest}, connect
 * `request.client` and return the connection (the default is `connectClient`, one transport per
 * server). A connection pool provides one to share connections between managers.
 */
export type OpenConnection<TClient extends Client = Client> = (request: ConnectionRequest<TClient>) => Promise<OpenedConnection>;
