import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { McpServerConfig } from '@toolhost/config';
import { DEFAULT_MCP_TIMEOUT_MS } from '@toolhost/config';
import { createHttpFetch, type HttpObservations } from './create-http-fetch.js';
import { LegacySseTransport } from './legacy-sse-transport.js';
import { resolveTransportKind } from './resolve-transport-kind.js';
import { sanitizeEnvironment } from './sanitize-environment.js';
import { StdioTransport } from './stdio-transport.js';
import { StreamableHttpSessionTransport } from './streamable-http-session-transport.js';
import type { TransportHandle, TransportOptions } from './transport-options.js';

function mergedRequestInit(config: McpServerConfig, requestInit: RequestInit | undefined): RequestInit {
  const headers = new Headers(requestInit?.headers);
  for (const [name, value] of Object.entries(config.headers ?? {})) headers.set(name, value);
  return { ...requestInit, headers: Object.fromEntries(headers.entries()) };
}

/**
 * Builds the legacy HTTP+SSE transport for `url` (also used by the Streamable HTTP fallback).
 * Its `start()` waits for the `endpoint` event at most `endpointTimeoutMs`
 * (default: the entry's `timeout`) and stops when `signal` aborts.
 */
export function createSseTransport(
  {
    url,
    config,
    endpointTimeoutMs,
    signal,
  }: { url: URL; config: McpServerConfig; endpointTimeoutMs?: number; signal?: AbortSignal | undefined },
  options: TransportOptions,
): TransportHandle {
  const observations: HttpObservations = {};
  const transport = new LegacySseTransport(
    url,
    {
      requestInit: mergedRequestInit(config, options.requestInit),
      fetch: createHttpFetch({
        fetch: options.fetch ?? globalThis.fetch,
        observations,
        rewriteGetNotFound: false,
        serverName: options.serverName,
        ...(options.maxMessageBytes !== undefined ? { maxMessageBytes: options.maxMessageBytes } : {}),
      }),
      ...(options.authProvider ? { authProvider: options.authProvider } : {}),
    },
    {
      serverName: options.serverName,
      observations,
      endpointTimeoutMs: endpointTimeoutMs ?? config.timeout ?? DEFAULT_MCP_TIMEOUT_MS,
      signal,
    },
  );
  return {
    transport,
    kind: 'sse',
    stderr: undefined,
    pid: undefined,
    authChallenge: () => observations.challenge,
    close: () => transport.close(),
  };
}

/**
 * Builds the transport for one `mcpServers` entry without connecting it:
 * `httpUrl` → Streamable HTTP; `url` + `type: 'sse'` → SSE; `url` + `type: 'http'` or no type →
 * Streamable HTTP (use `connectTransport` for the SSE fallback); `command` → stdio.
 * The stdio child inherits only an allowlist of variables (see `sanitizeEnvironment`: no
 * `NODE_OPTIONS`, `LD_PRELOAD` or secrets), plus the entry's `env` (never removed); it runs in
 * its own process group on POSIX; its stderr is kept in `stderr`.
 * @throws TransportError `INVALID_CONFIG` for an entry without a usable transport.
 * @example
 * const { transport } = createTransport({ command: 'node', args: ['server.js'] }, { serverName: 'demo' });
 * await client.connect(transport);
 */
export function createTransport(config: McpServerConfig, options: TransportOptions): TransportHandle {
  const target = resolveTransportKind(options.serverName, config);
  if (target.kind === 'sse') return createSseTransport({ url: target.url, config }, options);
  if (target.kind === 'http') {
    const observations: HttpObservations = {};
    const fetch = createHttpFetch({
      fetch: options.fetch ?? globalThis.fetch,
      observations,
      serverName: options.serverName,
      ...(options.maxMessageBytes !== undefined ? { maxMessageBytes: options.maxMessageBytes } : {}),
      server: { name: options.serverName, url: target.url.href },
    });
    const requestInit = mergedRequestInit(config, options.requestInit);
    const transport = new StreamableHttpSessionTransport({
      serverName: options.serverName,
      url: target.url.href,
      observations,
      ...(options.sessionDeleteTimeoutMs !== undefined ? { deleteTimeoutMs: options.sessionDeleteTimeoutMs } : {}),
      ...(options.endSessionOnClose === false ? { endSessionOnClose: false } : {}),
      createTransport: (sessionId) =>
        new StreamableHTTPClientTransport(target.url, {
          requestInit,
          fetch,
          ...(options.authProvider ? { authProvider: options.authProvider } : {}),
          ...(sessionId !== undefined ? { sessionId } : {}),
        }),
      ...(options.sessionId !== undefined ? { sessionId: options.sessionId } : {}),
    });
    return {
      transport,
      kind: 'http',
      stderr: undefined,
      pid: undefined,
      authChallenge: () => observations.challenge,
      close: () => transport.close(),
    };
  }
  const inherited = options.env ?? globalThis.process?.env ?? {};
  const env = { ...sanitizeEnvironment(inherited, options.environment), ...config.env };
  const transport = new StdioTransport({
    serverName: options.serverName,
    command: target.command,
    args: config.args ?? [],
    env,
    ...(config.cwd !== undefined ? { cwd: config.cwd } : {}),
    ...(options.stderrLines !== undefined ? { stderrLines: options.stderrLines } : {}),
    ...(options.onStderr ? { onStderr: options.onStderr } : {}),
    ...(options.stderrLinesPerSecond !== undefined ? { stderrLinesPerSecond: options.stderrLinesPerSecond } : {}),
    ...(options.closeGraceMs !== undefined ? { closeGraceMs: options.closeGraceMs } : {}),
    ...(options.maxMessageBytes !== undefined ? { maxMessageBytes: options.maxMessageBytes } : {}),
  });
  return {
    transport,
    kind: 'stdio',
    stderr: transport.stderr,
    get pid() {
      return transport.pid;
    },
    authChallenge: () => undefined,
    close: () => transport.close(),
  };
}
