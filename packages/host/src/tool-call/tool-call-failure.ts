import { ConnectionError, isConnectionClosed, isRequestTimeout } from '@toolhost/connection';
import { escapeControlText, findErrorInChain, type ToolhostError } from '@toolhost/contract';
import { OAuthError } from '@toolhost/oauth';
import { findMessageTooLarge } from '@toolhost/transport';
import { HostError, type HostErrorCode } from '../host-error.js';
import type { CallableTool } from './callable-tool.js';

/** A call that did not succeed: the error for the model and the final status. */
export interface ToolCallFailure {
  /** What happened, in words the model can use. */
  readonly error: HostError;
  /** `CANCELLED` when the user declined or the call was aborted, else `FAILED`. */
  readonly status: 'FAILED' | 'CANCELLED';
}

const CANCELLED_CODES: ReadonlySet<HostErrorCode> = new Set(['CANCELLED', 'TOOL_CALL_DENIED', 'DENIED_BY_POLICY', 'CONFIRMATION_REQUIRED']);

/** A failure with the status its code implies. */
export function failure(error: HostError): ToolCallFailure {
  return { error, status: CANCELLED_CODES.has(error.code) ? 'CANCELLED' : 'FAILED' };
}

/** A lower layer's toolhost error, re-issued as a {@link HostError} about this call (same code and message). */
export function fromLayerError(error: ToolhostError, tool: CallableTool, code: HostErrorCode): HostError {
  return new HostError({
    code,
    message: error.message,
    serverName: tool.definition.serverName,
    toolName: tool.definition.name,
    cause: error,
  });
}

/** The call was aborted through its signal before or while it ran. */
export function cancelled(tool: CallableTool, ran: boolean): HostError {
  const { name, serverName } = tool.definition;
  return new HostError({
    code: 'CANCELLED',
    serverName,
    toolName: name,
    message: ran
      ? `The call to tool "${name}" of MCP server "${serverName}" was cancelled.`
      : `The call to tool "${name}" was cancelled before it ran.`,
  });
}

/**
 * Why a request to the server failed, as a {@link HostError} (SDK error codes: timeout, closed
 * connection; `MESSAGE_TOO_LARGE` when the answer was over `limits.maxMessageBytes`, naming the
 * server and the limit; `AUTH_REQUIRED` when the server refused the stored OAuth credentials and
 * the user must sign in, as the OAuth provider said).
 */
export function executionError(error: unknown, tool: CallableTool, signal: AbortSignal | undefined): HostError {
  const { name, serverName } = tool.definition;
  if (signal?.aborted) return cancelled(tool, true);
  if (HostError.isInstance(error)) {
    // Raised around the call by the host itself (step-up: AUTH_REQUIRED, STEP_UP_LIMIT, ...).
    return new HostError({ code: error.code, serverName, toolName: name, message: error.message, cause: error.cause ?? error });
  }
  if (ConnectionError.isInstance(error)) {
    // Raised by the connection itself (a pooled connection that must close: CONNECTION_CLOSED).
    return new HostError({ code: error.code, serverName, toolName: name, message: error.message, cause: error });
  }
  // The server writes most of this text (a JSON-RPC error message): shown escaped and bounded.
  const reason = escapeControlText(error instanceof Error ? error.message : String(error), { maxLength: 2000 });
  if (isRequestTimeout(error)) {
    return new HostError({
      code: 'REQUEST_TIMEOUT',
      serverName,
      toolName: name,
      cause: error,
      message: `Tool "${name}" of MCP server "${serverName}" did not answer within ${tool.timeoutMs} ms. ${reason}`,
    });
  }
  const tooLarge = findMessageTooLarge(error);
  if (tooLarge) {
    return new HostError({
      code: 'MESSAGE_TOO_LARGE',
      serverName,
      toolName: name,
      cause: error,
      message: `Tool "${name}" of MCP server "${serverName}" failed: ${tooLarge.message}`,
    });
  }
  const closed = isConnectionClosed(error);
  const signInNeeded = findErrorInChain(
    error,
    (value): value is OAuthError => OAuthError.isInstance(value) && value.code === 'AUTH_REQUIRED',
  );
  return new HostError({
    code: closed ? 'CONNECTION_CLOSED' : signInNeeded ? 'AUTH_REQUIRED' : 'REQUEST_FAILED',
    serverName,
    toolName: name,
    cause: error,
    message: `Tool "${name}" of MCP server "${serverName}" failed: ${reason}`,
  });
}

/**
 * No registered tool has the name the model used. `unavailable` names the configured server
 * that a `server__tool` name points at when that server is not connected.
 */
export function toolNotFound(
  name: string,
  known: readonly string[],
  unavailable?: { readonly serverName: string; readonly status: string },
): HostError {
  const shown = known.slice(0, 20).join(', ');
  const available = known.length
    ? `Available tools: ${shown}${known.length > 20 ? ', ...' : ''}.`
    : 'No MCP tools are available: run discover() first or check the server status.';
  if (unavailable) {
    return new HostError({
      code: 'TOOL_NOT_FOUND',
      toolName: name,
      serverName: unavailable.serverName,
      message: `Tool "${name}" is not available: MCP server "${unavailable.serverName}" is ${unavailable.status.toLowerCase()}, so none of its tools can be called. Check it with /mcp, or reconnect it. ${available}`,
    });
  }
  return new HostError({
    code: 'TOOL_NOT_FOUND',
    toolName: name,
    message: `Tool "${name}" is not registered. ${available}`,
  });
}
