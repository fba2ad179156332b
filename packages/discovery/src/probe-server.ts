import { Client } from '@modelcontextprotocol/client';
import type { Implementation } from '@modelcontextprotocol/client';
import type { McpServerConfig } from '@toolhost/config';
import type { TransportOptions } from './connect-client.js';
import { DiscoveryError } from './discovery-error.js';
import { DEFAULT_CLIENT_INFO } from './mcp-server-manager.js';
import type { ServerErrorInfo } from './manager-types.js';
import { versionNegotiationOptions } from './version-negotiation.js';
import { ServerSession } from './server-session.js';
import { McpServerStatus } from './server-status.js';
import { errorInfo } from './server-state.js';

/** Default timeout of {@link probeServer}, in milliseconds. */
export const DEFAULT_PROBE_TIMEOUT_MS = 5_000;

/** Options of {@link probeServer}. */
export interface ProbeServerOptions {
  /** Give up after this long. @default 5000 */
  timeoutMs?: number;
  /** Name and version sent in `initialize`. @default { name: 'toolhost', version: '0.1.0' } */
  clientInfo?: Implementation;
  /** Options for the transport layer (fetch, authProvider, env...). */
  transportOptions?: TransportOptions;
}

/** Result of {@link probeServer}. */
export interface ProbeResult {
  /** Server name. */
  name: string;
  /** `CONNECTED` if the handshake succeeded, else `DISCONNECTED`. */
  status: typeof McpServerStatus.CONNECTED | typeof McpServerStatus.DISCONNECTED;
  /** Why it could not connect. */
  error: ServerErrorInfo | undefined;
  /** Name and version the server reported. */
  serverInfo: Implementation | undefined;
  /** The MCP revision negotiated (`2026-07-28`, `2025-11-25`, ...). */
  protocolVersion: string | undefined;
  /** The transport that worked. */
  transportType: 'stdio' | 'sse' | 'http' | undefined;
  /** How long the attempt took, in milliseconds. */
  durationMs: number;
}

/**
 * Try a real connection to one server with a short timeout (for `toolhost mcp list`), then
 * close it. A failing `ping` after the handshake is ignored: some servers do not implement it.
 */
export async function probeServer(name: string, config: McpServerConfig, options: ProbeServerOptions = {}): Promise<ProbeResult> {
  const started = Date.now();
  const timeoutMs = options.timeoutMs ?? DEFAULT_PROBE_TIMEOUT_MS;
  const abort = new AbortController();
  const timer = setTimeout(() => {
    abort.abort(
      new DiscoveryError({
        code: 'DISCOVERY_TIMEOUT',
        message: `MCP server '${name}' did not answer within ${timeoutMs} ms.`,
        serverName: name,
      }),
    );
  }, timeoutMs);
  let session: ServerSession | undefined;
  try {
    session = await ServerSession.open({
      serverName: name,
      config,
      client: new Client({ ...(options.clientInfo ?? DEFAULT_CLIENT_INFO) }, { capabilities: {}, ...versionNegotiationOptions(config) }),
      timeout: timeoutMs,
      signal: abort.signal,
      transportOptions: options.transportOptions,
      onListChanged: () => undefined,
      onLost: () => undefined,
    });
    await session.client.ping({ timeout: timeoutMs, signal: abort.signal }).catch(() => undefined);
    return {
      name,
      status: McpServerStatus.CONNECTED,
      error: undefined,
      serverInfo: session.client.getServerVersion(),
      protocolVersion: session.client.getNegotiatedProtocolVersion(),
      transportType: session.transportType,
      durationMs: Date.now() - started,
    };
  } catch (caught) {
    const reason: unknown = abort.signal.aborted ? abort.signal.reason : caught;
    const error = DiscoveryError.isInstance(reason)
      ? reason
      : new DiscoveryError({
          code: 'CONNECT_FAILED',
          message: `Could not connect to MCP server '${name}': ${String(reason)}`,
          serverName: name,
          cause: reason,
        });
    return {
      name,
      status: McpServerStatus.DISCONNECTED,
      error: errorInfo(error),
      serverInfo: undefined,
      protocolVersion: undefined,
      transportType: undefined,
      durationMs: Date.now() - started,
    };
  } finally {
    clearTimeout(timer);
    await session?.close();
  }
}
