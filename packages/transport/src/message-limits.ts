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

/**
 * Key under which the answers of {@link errorAnswers} carry the error itself in their `data`. A
 * symbol: JSON cannot hold one, so a server cannot forge an answer that carries it.
 */
const TOO_LARGE = Symbol.for('toolhost.transport.messageTooLarge');

/**
 * JSON-RPC error answers carrying `error`'s message, one per request id, made by the transport
 * itself (never sent by the server); `error` rides along in `data` for {@link findMessageTooLarge}.
 */
export function errorAnswers(ids: Iterable<string | number>, error: Error): JSONRPCMessage[] {
  return [...ids].map((id) => ({
    jsonrpc: '2.0',
    id,
    error: { code: MESSAGE_TOO_LARGE_CODE, message: error.message, data: { [TOO_LARGE]: error } },
  }));
}

/**
 * The `MESSAGE_TOO_LARGE` {@link TransportError} behind a failed request, if that is why it
 * failed: `error` (or an error in its `cause` chain) is that error itself, or the SDK's
 * `ProtocolError` for the answer the transport gave in place of a message over the limit. An
 * error answer the server sent, even one with code `-32098`, is never taken for it.
 *
 * @example
 * ```ts
 * const tooLarge = findMessageTooLarge(error);
 * if (tooLarge) console.error(tooLarge.message); // names the server and the limit
 * ```
 */
export function findMessageTooLarge(error: unknown): TransportError | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 10 && typeof current === 'object' && current !== null; depth++) {
    if (TransportError.isInstance(current) && current.code === 'MESSAGE_TOO_LARGE') return current;
    const data = (current as { data?: unknown }).data;
    const carried = typeof data === 'object' && data !== null ? (data as Record<symbol, unknown>)[TOO_LARGE] : undefined;
    if (TransportError.isInstance(carried) && carried.code === 'MESSAGE_TOO_LARGE') return carried;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** A server-sent `retry` clamped to [{@link MIN_SSE_RETRY_MS}, {@link MAX_SSE_RETRY_MS}]. */
export function clampRetryMs(value: number): number {
  return Math.min(MAX_SSE_RETRY_MS, Math.max(MIN_SSE_RETRY_MS, value));
}
