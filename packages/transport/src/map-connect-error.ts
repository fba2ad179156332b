import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { SseError } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { TransportHandle } from './transport-options.js';
import { TransportError } from './transport-error.js';

/** Where the failed connection was going, for the error message and fields. */
export interface ConnectErrorContext {
  /** Name of the server entry. */
  serverName: string;
  /** The transport that failed. */
  handle: TransportHandle;
  /** Remote URL, if any. */
  url?: string;
  /** stdio command, if any. */
  command?: string;
  /** The connect timeout that applied, in ms. */
  timeoutMs: number;
  /** Extra sentence appended to the message (e.g. the SSE fallback's own failure). */
  note?: string;
}

/** HTTP status carried by an SDK transport error, if any. */
export function httpStatusOf(error: unknown): number | undefined {
  if (error instanceof StreamableHTTPError || error instanceof SseError) {
    return typeof error.code === 'number' && error.code > 0 ? error.code : undefined;
  }
  if (TransportError.isInstance(error)) return error.status;
  return undefined;
}

/**
 * True when `error` already says, with the stable code `AUTH_REQUIRED`, that the user must sign
 * in: typically the `OAuthError` an auth provider of `@toolhost/oauth` throws instead of starting
 * a browser flow. Matched on the `code` alone, so this package does not depend on the OAuth one.
 */
export function isAuthRequiredError(error: unknown): error is Error & { code: 'AUTH_REQUIRED' } {
  return error instanceof Error && (error as { code?: unknown }).code === 'AUTH_REQUIRED';
}

/** Turns whatever `Client.connect` threw into a {@link TransportError} naming the server. */
export function mapConnectError(error: unknown, context: ConnectErrorContext): TransportError {
  if (TransportError.isInstance(error)) return error;
  const { serverName, handle, url, command } = context;
  const where = url ? `MCP server '${serverName}' (${url})` : `MCP server '${serverName}'`;
  const note = context.note ? ` ${context.note}` : '';
  const stderr = handle.stderr?.lines();
  const base = { serverName, cause: error, ...(url ? { url } : {}), ...(command ? { command } : {}), ...(stderr ? { stderr } : {}) };
  const status = httpStatusOf(error);
  const challenge = handle.authChallenge();
  const authRequired = isAuthRequiredError(error);
  if (status === 401 || error instanceof UnauthorizedError || authRequired) {
    return new TransportError({
      code: 'AUTH_REQUIRED',
      message: authRequired
        ? `${error.message}${note}`
        : `${where} requires authentication (HTTP 401): authenticate with its OAuth flow (e.g. "toolhost mcp auth ${serverName}") or configure headers.${note}`,
      ...base,
      status: authRequired && challenge ? challenge.status : 401,
      ...(challenge?.wwwAuthenticate ? { wwwAuthenticate: challenge.wwwAuthenticate } : {}),
      ...(challenge?.resourceMetadataUrl ? { resourceMetadataUrl: challenge.resourceMetadataUrl } : {}),
      ...(challenge?.scope ? { scope: challenge.scope } : {}),
    });
  }
  if (status === 403) {
    return new TransportError({
      code: 'FORBIDDEN',
      message: `${where} refused access (HTTP 403): check the credentials and scopes it needs.${note}`,
      ...base,
      status,
      ...(challenge?.wwwAuthenticate ? { wwwAuthenticate: challenge.wwwAuthenticate } : {}),
      ...(challenge?.scope ? { scope: challenge.scope } : {}),
    });
  }
  if (status !== undefined) {
    return new TransportError({
      code: 'HTTP_STATUS',
      message: `${where} answered HTTP ${status} while connecting: check the URL and transport type.${note}`,
      ...base,
      status,
    });
  }
  if (error instanceof McpError && error.code === ErrorCode.ConnectionClosed) {
    const tail = stderr?.length ? ` Last stderr line: ${stderr[stderr.length - 1]}` : '';
    return new TransportError({
      code: 'CONNECTION_CLOSED',
      message: `${where} closed the connection while connecting${handle.kind === 'stdio' ? ' (the process exited)' : ''}.${tail}${note}`,
      ...base,
    });
  }
  if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) {
    return new TransportError({
      code: 'CONNECT_FAILED',
      message: `${where} did not answer initialize within ${context.timeoutMs} ms.${note}`,
      ...base,
    });
  }
  const reason = error instanceof Error ? error.message : String(error);
  return new TransportError({ code: 'CONNECT_FAILED', message: `${where} could not be connected: ${reason}.${note}`, ...base });
}
