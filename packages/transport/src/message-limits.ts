import type { JSONRPCMessage } from '@modelcontextprotocol/client';
import { TransportError } from './transport-error.js';

/**
 * Default cap of one message from a server, in bytes: a stdio line, an SSE event, or a JSON
 * body. 32 MiB fits a 10 MB image (13.3 MB of base64) with room to spare.
 */
export const DEFAULT_MAX_MESSAGE_BYTES = 32 * 1024 * 1024;

/** Shortest reconnect delay a server's SSE `retry:` field may ask for, in milliseconds. */
export const MIN_SSE_RETRY_MS = 100;

/** Longest reconnect delay a server's SSE `retry:` field may ask for, in milliseconds. */
export const MAX_SSE_RETRY_MS = 60_000;

/**
 * JSON-RPC error code of the answer given to a request whose answer was too large (or was lost
 * with a message that was), in the implementation-defined server-error range.
 */
export const MESSAGE_TOO_LARGE_CODE = -32098;

/** `33554432` → `32 MiB`; other sizes in bytes. */
export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MiB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes} bytes`;
}

/** The `MESSAGE_TOO_LARGE` error naming the server and the limit. */
export function messageTooLarge(options: {
  serverName: string;
  what: string;
  limit: number;
  url?: string | undefined;
  command?: string | undefined;
}): TransportError {
  const { serverName, what, limit } = options;
  return new TransportError({
    code: 'MESSAGE_TOO_LARGE',
    message:
      `MCP server '${serverName}' sent ${what} larger than the limit of ${formatBytes(limit)} (maxMessageBytes = ${limit}). ` +
      'Raise limits.maxMessageBytes if the server legitimately sends messages this large.',
    serverName,
    ...(options.url !== undefined ? { url: options.url } : {}),
    ...(options.command !== undefined ? { command: options.command } : {}),
  });
}

/** JSON-RPC error answers carrying `error`'s message, one per request id. */
export function errorAnswers(ids: Iterable<string | number>, error: Error): JSONRPCMessage[] {
  return [...ids].map((id) => ({ jsonrpc: '2.0', id, error: { code: MESSAGE_TOO_LARGE_CODE, message: error.message } }));
}

/** A server-sent `retry` clamped to [{@link MIN_SSE_RETRY_MS}, {@link MAX_SSE_RETRY_MS}]. */
export function clampRetryMs(value: number): number {
  return Math.min(MAX_SSE_RETRY_MS, Math.max(MIN_SSE_RETRY_MS, value));
}
