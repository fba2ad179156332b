import { parseJSONRPCMessage, type JSONRPCMessage } from '@modelcontextprotocol/client';

/**
 * True for the message a server sends most: a result response of exactly
 * `{ jsonrpc: "2.0", id, result }`, `id` a string or an integer, `result` an object without
 * `_meta`. The SDK's message schema would return such a message unchanged, so it needs no
 * further check here (the result itself is checked against its request's schema later).
 */
export function isPlainResultResponse(value: unknown): value is JSONRPCMessage {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const message = value as Record<string, unknown>;
  const keys = Object.keys(message);
  if (keys.length !== 3 || message['jsonrpc'] !== '2.0') return false;
  const id = message['id'];
  if (typeof id !== 'string' && !Number.isInteger(id)) return false;
  const result = message['result'];
  if (typeof result !== 'object' || result === null || Array.isArray(result)) return false;
  return !Object.hasOwn(result, '_meta');
}

/**
 * One line of a stdio server's output as a JSON-RPC message: a plain result response
 * ({@link isPlainResultResponse}) as parsed, every other message through the SDK's full message
 * schema. Throws `SyntaxError` for a line that is not JSON, and the schema's error for JSON that
 * is not a JSON-RPC message.
 */
export function parseMessageLine(line: string): JSONRPCMessage {
  const value: unknown = JSON.parse(line);
  return isPlainResultResponse(value) ? value : parseJSONRPCMessage(value);
}
