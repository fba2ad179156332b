import type { Client } from '@modelcontextprotocol/client';
import type { McpServerConfig } from '@toolhost/config';
import { connectTransport, type TransportOptions as LayerTransportOptions } from '@toolhost/transport';

/**
 * Options passed through to `@toolhost/transport` for one server: `fetch`, `authProvider`,
 * `env`, `environment`, `requestInit`, `stderrLines`, `closeGraceMs`, `sessionDeleteTimeoutMs`.
 */
export type TransportOptions = Omit<LayerTransportOptions, 'serverName'>;

/** A live connection made by {@link connectClient}. */
export interface OpenedConnection {
  /** The transport actually used. */
  transportType: 'stdio' | 'sse' | 'http';
  /** Last lines the server wrote to stderr (stdio only). */
  stderrTail: () => string[];
  /** Process id of a stdio server. */
  pid: () => number | undefined;
  /** Close the transport and the client; a stdio child is stopped (stdin, SIGTERM, SIGKILL). */
  close: () => Promise<void>;
}

/** Options of {@link connectClient}. */
export interface ConnectClientOptions {
  /** Server name. */
  serverName: string;
  /** Server entry. */
  config: McpServerConfig;
  /** The client to connect. */
  client: Client;
  /** Timeout of the initialize request. */
  timeout: number;
  /** Aborts the connection attempt. */
  signal: AbortSignal;
  /** Options for the transport layer. */
  transportOptions?: TransportOptions | undefined;
}

/**
 * Connect `client` over the entry's transport (with the Streamable HTTP → SSE fallback of an
 * untyped `url`). Rejects with the transport layer's `TransportError`.
 */
export async function connectClient(options: ConnectClientOptions): Promise<OpenedConnection> {
  const connection = await connectTransport({
    ...options.transportOptions,
    serverName: options.serverName,
    config: options.config,
    client: options.client,
    timeout: options.timeout,
    signal: options.signal,
  });
  return {
    transportType: connection.kind,
    stderrTail: () => connection.stderr?.lines() ?? [],
    pid: () => connection.pid,
    close: () => connection.close(),
  };
}
