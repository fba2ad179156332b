import { Client } from '@modelcontextprotocol/client';
import type { Implementation } from '@modelcontextprotocol/client';
import { getServerTransport, type McpServerConfig } from '@toolhost/config';
import { versionNegotiationOptions, type TransportOptions } from '@toolhost/connection';
import { PACKAGE_RUNNER_START_TIMEOUT_MS, packageRunnerOf, slowStartAdvice } from '@toolhost/transport';
import { DiscoveryError } from './discovery-error.js';
import { DEFAULT_CLIENT_INFO } from './mcp-server-manager.js';
import type { ServerErrorInfo } from './manager-types.js';
import { ServerSession } from './server-session.js';
import { McpServerStatus } from './server-status.js';
import { errorInfo } from './server-state.js';

/** Default timeout of {@link probeServer}, in milliseconds. */
export const DEFAULT_PROBE_TIMEOUT_MS = 5_000;

/**
 * The time a probe gives a server whose entry sets no `timeout`: {@link DEFAULT_PROBE_TIMEOUT_MS},
 * or `PACKAGE_RUNNER_START_TIMEOUT_MS` (60 s) for a stdio command started through a package runner
 * (`npx`, `uvx`, `pnpm dlx`...), which may first download and install the package.
 *
 * @example
 * probeTimeoutMs({ command: 'npx', args: ['-y', '@modelcontextprotocol/server-memory'] }); // 60000
 */
export function probeTimeoutMs(config: McpServerConfig, fallbackMs: number = DEFAULT_PROBE_TIMEOUT_MS): number {
  if (config.timeout !== undefined) return config.timeout;
  const transport = getServerTransport(config);
  const stdio = transport?.transport === 'stdio' && config.command !== undefined;
  return stdio && packageRunnerOf(config.command ?? '', config.args) !== undefined
    ? Math.max(fallbackMs, PACKAGE_RUNNER_START_TIMEOUT_MS)
    : fallbackMs;
}

/** Options of {@link probeServer}. */
export interface ProbeServerOptions {
  /** Give up after this long. @default the entry's `timeout`, else 5000 (60000 for `npx`, `uvx`... see {@link probeTimeoutMs}) */
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
 * A server started through a package runner (`npx -y …`) that is still installing when the time
 * is up is let finish its install as it is closed (see `installGraceMs` of `@toolhost/transport`),
 * so the probe never leaves a broken install behind; the next probe then finds it installed.
 */
export async function probeServer(name: string, config: McpServerConfig, options: ProbeServerOptions = {}): Promise<ProbeResult> {
  const started = Date.now();
  const timeoutMs = options.timeoutMs ?? probeTimeoutMs(config);
  const abort = new AbortController();
  const timer = setTimeout(() => {
    abort.abort(
      new DiscoveryError({
        code: 'DISCOVERY_TIMEOUT',
        message: `MCP server '${name}' did not answer within ${timeoutMs} ms. ${slowStartAdvice(config)}`,
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
