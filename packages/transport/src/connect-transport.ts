import type { Client } from '@modelcontextprotocol/client';
import type { McpServerConfig } from '@toolhost/config';
import { DEFAULT_MCP_TIMEOUT_MS } from '@toolhost/config';
import { createSseTransport, createTransport } from './create-transport.js';
import { escapeControlText, maskUrl } from '@toolhost/contract';
import { describeNetworkFailure } from './describe-network-failure.js';
import { httpStatusOf, mapConnectError, versionMismatchOf } from './map-connect-error.js';
import { redactSecrets } from './redact-secrets.js';
import { resolveTransportKind } from './resolve-transport-kind.js';
import { TransportError } from './transport-error.js';
import type { TransportHandle, TransportOptions } from './transport-options.js';

/** HTTP statuses of the initialize POST that mean "try legacy SSE" (never 401/403). */
export const SSE_FALLBACK_STATUSES: readonly number[] = [400, 404, 405];

/** Options of {@link connectTransport}. */
export interface ConnectTransportOptions extends TransportOptions {
  /** The server entry. */
  config: McpServerConfig;
  /** A fresh SDK `Client`; it is connected on success and closed on failure. */
  client: Client;
  /** Connect (initialize) timeout in ms. @default config.timeout ?? 600000 */
  timeout?: number;
  /** Aborts the connection attempt. */
  signal?: AbortSignal;
}

/** A connected transport. */
export interface ConnectedTransport extends TransportHandle {
  /** True when an untyped `url` fell back from Streamable HTTP to legacy SSE. */
  fellBackToSse: boolean;
}

/**
 * Connects `client` to the server of `config`, choosing the transport like `createTransport`;
 * a `url` without `type` tries Streamable HTTP first and legacy SSE only when the initialize
 * POST answered 400, 404 or 405. Failures are `TransportError`s naming the server; the client
 * is closed and no process is left running. Attach the client's `onclose`/`onerror` handlers
 * after this resolves.
 * @example
 * const client = new Client({ name: 'host', version: '1.0.0' });
 * const connection = await connectTransport({ serverName: 'github', config, client });
 * // ... use client ...
 * await connection.close();
 */
export async function connectTransport(options: ConnectTransportOptions): Promise<ConnectedTransport> {
  const { config, client, serverName } = options;
  const target = resolveTransportKind(serverName, config);
  const timeoutMs = options.timeout ?? config.timeout ?? DEFAULT_MCP_TIMEOUT_MS;
  const requestOptions = { timeout: timeoutMs, ...(options.signal ? { signal: options.signal } : {}) };
  const context = {
    serverName,
    timeoutMs,
    protocolVersion: config.protocolVersion,
    // Masked: the URL goes into messages and the error's `url`, and its query may hold a token.
    ...(target.kind === 'stdio' ? { command: target.command, args: config.args ?? [] } : { url: maskUrl(target.url.href) }),
  };
  const attempt = async (handle: TransportHandle): Promise<unknown> => {
    // The SDK's version probe (`server/discover`, up to its own probe timeout) does not listen to
    // the signal: closing the transport on abort ends the attempt at once.
    const onAbort = () => void handle.close().catch(() => undefined);
    options.signal?.addEventListener('abort', onAbort, { once: true });
    try {
      if (options.signal?.aborted) throw options.signal.reason;
      await client.connect(handle.transport, requestOptions);
      if (options.signal?.aborted) throw options.signal.reason;
      return undefined;
    } catch (error) {
      await client.close().catch(() => undefined);
      await handle.close().catch(() => undefined);
      const reason: unknown = options.signal?.reason;
      // Keep an error that says what was pending when the attempt was stopped (its cause is the reason).
      if (options.signal?.aborted && !(error instanceof Error && error.cause === reason && reason !== undefined)) return reason;
      return error;
    } finally {
      options.signal?.removeEventListener('abort', onAbort);
    }
  };
  const connected = (handle: TransportHandle, fellBackToSse: boolean): ConnectedTransport => ({
    ...handle,
    get pid() {
      return handle.pid;
    },
    fellBackToSse,
    close: async () => {
      await handle.close().catch(() => undefined);
      await client.close().catch(() => undefined);
    },
  });

  const sseOptions = { endpointTimeoutMs: timeoutMs, signal: options.signal };
  const first =
    target.kind === 'sse' ? createSseTransport({ url: target.url, config, ...sseOptions }, options) : createTransport(config, options);
  const error = await attempt(first);
  if (error === undefined) return connected(first, false);
  const status = httpStatusOf(error);
  // A 400 that says "unsupported protocol version" comes from a modern server, not an old SSE one.
  const mismatch = versionMismatchOf(error, config.protocolVersion) !== undefined;
  if (mismatch || target.kind !== 'http' || !target.detectSse || status === undefined || !SSE_FALLBACK_STATUSES.includes(status)) {
    throw mapConnectError(error, { ...context, handle: first });
  }
  const sse = createSseTransport({ url: target.url, config, ...sseOptions }, options);
  const sseError = await attempt(sse);
  if (sseError === undefined) return connected(sse, true);
  // Stopped while the fallback waited (for its `endpoint` event): that is what the user needs to know.
  if (options.signal?.aborted && TransportError.isInstance(sseError) && sseError.cause === options.signal.reason) throw sseError;
  throw mapConnectError(error, { ...context, handle: first, note: describeFallbackFailure(sseError, target.url) });
}

/** One sentence on why the legacy SSE fallback failed too: its HTTP status, its network failure, or its (escaped) message. */
function describeFallbackFailure(error: unknown, url: URL): string {
  const status = httpStatusOf(error);
  if (status !== undefined) return `The legacy SSE transport was tried too and answered HTTP ${status}.`;
  const network = describeNetworkFailure(error, url);
  if (network) return `The legacy SSE transport was tried too: ${network.what}.`;
  const message = error instanceof Error ? error.message : String(error);
  const reason = escapeControlText(redactSecrets(message, error), { maxLength: 300 });
  return `The legacy SSE transport was tried too and failed: ${reason}${/[.!?]$/.test(reason) ? '' : '.'}`;
}
