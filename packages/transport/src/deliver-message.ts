import { ProtocolErrorCode, type JSONRPCMessage, type MessageExtraInfo } from '@modelcontextprotocol/client';
import { escapeControlText } from '@toolhost/contract';
import { TransportError } from './transport-error.js';

/** The handlers of a transport that a received message goes to. */
export interface MessageHandlers {
  /** See `Transport.onmessage`. */
  readonly onmessage?: ((message: JSONRPCMessage, extra?: MessageExtraInfo) => void) | undefined;
  /** See `Transport.onerror`. */
  readonly onerror?: ((error: Error) => void) | undefined;
}

/** What the message was, for the error: `an answer to request 7`, `a tools/list request`, `a notifications/message notification`. */
function describeMessage(message: JSONRPCMessage): string {
  if (!('method' in message)) return `an answer to request ${escapeControlText(String(message.id), { maxLength: 60 })}`;
  const method = escapeControlText(String(message.method), { maxLength: 80 });
  return 'id' in message ? `a ${method} request` : `a ${method} notification`;
}

/**
 * Hand one message from the server to `handlers.onmessage` behind a boundary: whatever the
 * handlers behind it throw (the SDK's dispatch, the host's filters, a notification handler run
 * synchronously) is caught here, in the stream, timer or microtask callback that received the
 * message, where it would otherwise be an uncaught exception and end the whole process (every
 * user of a multi-user server with it). The failure becomes that server's error instead: an
 * `INVALID_RESPONSE` {@link TransportError} naming the server and the message goes to
 * `onerror`, and when the message answered a request, that request fails at once with an error
 * answer carrying the same text instead of waiting for its timeout.
 */
export function deliverMessage(handlers: MessageHandlers, message: JSONRPCMessage, serverName: string, extra?: MessageExtraInfo): void {
  try {
    handlers.onmessage?.(message, extra);
  } catch (caught) {
    const reason = escapeControlText(caught instanceof Error ? caught.message : String(caught), { maxLength: 200 });
    const error = new TransportError({
      code: 'INVALID_RESPONSE',
      message: `MCP server '${serverName}' sent ${describeMessage(message)} that could not be processed, so it was dropped: ${reason}`,
      serverName,
      cause: caught,
    });
    if (!('method' in message) && message.id !== undefined && message.id !== null && !('error' in message)) {
      try {
        handlers.onmessage?.({ jsonrpc: '2.0', id: message.id, error: { code: ProtocolErrorCode.InternalError, message: error.message } });
      } catch {
        // The handler fails on an error answer too: the request waits for its timeout, the error is still reported.
      }
    }
    try {
      handlers.onerror?.(error);
    } catch {
      // An error handler that throws must not end the process either.
    }
  }
}
