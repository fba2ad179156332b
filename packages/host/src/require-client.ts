import type { Client } from '@modelcontextprotocol/client';
import type { McpServerManager } from '@toolhost/discovery';
import { HostError } from './host-error.js';
import type { ResolvedServer } from './resolve-servers.js';

/** Which server, and what the host was about to do on it (for the message). */
export interface RequireClientOptions {
  /** The discovery layer holding the connections. */
  readonly manager: McpServerManager;
  /** Every configured server (to tell "not connected" from "not configured"). */
  readonly servers: readonly ResolvedServer[];
  /** The server. */
  readonly serverName: string;
  /** What the host was about to do (`set its log level`), completing "the host cannot ...". */
  readonly what: string;
}

/** The `SERVER_NOT_FOUND` error for a server that is not connected or not configured. */
export function notConnectedError(options: Omit<RequireClientOptions, 'manager'>): HostError {
  const { serverName, what } = options;
  const configured = options.servers.some((server) => server.name === serverName);
  return new HostError({
    code: 'SERVER_NOT_FOUND',
    serverName,
    message: configured
      ? `MCP server "${serverName}" is not connected, so the host cannot ${what}; see /mcp for why.`
      : `No MCP server named "${serverName}" is configured, so the host cannot ${what}.`,
  });
}

/**
 * The SDK client of a connected server.
 *
 * @throws HostError `SERVER_NOT_FOUND` when the server is not connected or not configured.
 */
export function requireClient(options: RequireClientOptions): Client {
  const client = options.manager.getClient(options.serverName);
  if (!client) throw notConnectedError(options);
  return client;
}
