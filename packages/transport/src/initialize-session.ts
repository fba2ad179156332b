import { isJSONRPCResultResponse } from '@modelcontextprotocol/client';
import type { StreamableHTTPClientTransport, JSONRPCMessage, JSONRPCRequest } from '@modelcontextprotocol/client';

/** Options of {@link initializeSession}. */
export interface InitializeSessionOptions {
  /** A fresh, unstarted SDK transport. */
  transport: StreamableHTTPClientTransport;
  /** JSON-RPC id of the initialize request (must not collide with the client's own ids). */
  id: string;
  /** The `initialize` parameters the client used the first time. */
  params: JSONRPCRequest['params'];
  /** Protocol version to use if the answer names none. */
  fallbackProtocolVersion: string | undefined;
  /** Time allowed for the answer, in ms. */
  timeoutMs: number;
  /** Resolves with the response carrying `id` (the caller routes responses). */
  waitForResponse: (id: string) => Promise<JSONRPCMessage>;
}

/**
 * Runs the initialize handshake on a new transport without the `Client` noticing:
 * `initialize` with the original parameters, then `notifications/initialized`.
 * @throws the transport's error, or an `Error` when the server answers with an error or not at all.
 */
export async function initializeSession(options: InitializeSessionOptions): Promise<void> {
  const { transport, id, params, timeoutMs } = options;
  await transport.start();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer to initialize within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    const answer = options.waitForResponse(id);
    await Promise.race([transport.send({ jsonrpc: '2.0', id, method: 'initialize', params }), timeout]);
    const response = await Promise.race([answer, timeout]);
    if (!isJSONRPCResultResponse(response)) throw new Error(`initialize failed: ${JSON.stringify(response)}`);
    const version = (response.result as { protocolVersion?: string }).protocolVersion ?? options.fallbackProtocolVersion;
    if (version) transport.setProtocolVersion(version);
    await transport.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  } finally {
    clearTimeout(timer);
  }
}
