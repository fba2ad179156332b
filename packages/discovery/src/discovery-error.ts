import { ToolhostError, type ErrorCode, type ToolhostErrorOptions } from '@toolhost/contract';

const DISCOVERY_ERROR_CODES = [
  'CONNECT_FAILED',
  'DISCOVERY_TIMEOUT',
  'LIST_FAILED',
  'PAGINATION_CURSOR_REPEATED',
  'PAGINATION_LIMIT_EXCEEDED',
  'NOTHING_OFFERED',
  'CLOSED_BY_POOL',
  'CONNECTION_CLOSED',
  'SERVER_NOT_FOUND',
  'SERVER_NOT_CONNECTED',
  'TOOL_NOT_FOUND',
  'PROMPT_NOT_FOUND',
  'RESOURCE_NOT_FOUND',
  'REQUEST_TIMEOUT',
  'CANCELLED',
  'REQUEST_FAILED',
  'DUPLICATE_SERVER_NAME',
  'SERVER_BLOCKED',
  'SERVER_DISABLED',
  'RECONNECT_GAVE_UP',
  'CLOSED',
] as const satisfies readonly ErrorCode[];

/**
 * Stable codes of {@link DiscoveryError} (each explained in the contract's `ERROR_CODES`); match
 * on these, never on message text:
 * - `CONNECT_FAILED`: the server could not be reached or the MCP handshake failed.
 * - `DISCOVERY_TIMEOUT`: connecting and discovering took longer than the server's timeout.
 * - `LIST_FAILED`: a list request failed with an error other than MethodNotFound.
 * - `PAGINATION_CURSOR_REPEATED`: a list response repeated a cursor it had already returned.
 * - `PAGINATION_LIMIT_EXCEEDED`: a list kept returning pages past the `maxPages` limit.
 * - `NOTHING_OFFERED`: the server offers no tools, prompts or resources, so it was disconnected.
 * - `CLOSED_BY_POOL`: a connection pool closed the idle server; it keeps its tools and starts again on its next use.
 * - `CONNECTION_CLOSED`: the connection to a connected server closed (the process exited, the HTTP server went away).
 * - `SERVER_NOT_FOUND`: no server with this name is configured.
 * - `SERVER_NOT_CONNECTED`: the server is configured but not connected right now.
 * - `TOOL_NOT_FOUND`: no tool is registered under this name.
 * - `PROMPT_NOT_FOUND`: no prompt is registered under this name.
 * - `RESOURCE_NOT_FOUND`: no connected server lists this resource.
 * - `REQUEST_TIMEOUT`: a request to the server did not answer in time.
 * - `CANCELLED`: the caller aborted the request.
 * - `REQUEST_FAILED`: the server answered a request with an error.
 * - `DUPLICATE_SERVER_NAME`: two servers were configured with the same name.
 * - `SERVER_BLOCKED`: the server is blocked by a policy (allow or exclude list) and was not started.
 * - `SERVER_DISABLED`: the server is disabled and was not started.
 * - `RECONNECT_GAVE_UP`: reconnecting a server that went away failed `maxAttempts` times in a row.
 * - `CLOSED`: the manager was closed; it cannot be used again.
 */
export type DiscoveryErrorCode = (typeof DISCOVERY_ERROR_CODES)[number];

/** Fields of a {@link DiscoveryError}: the common `code`, `message`, `serverName`, `cause`, plus what the request was about. */
export interface DiscoveryErrorOptions extends ToolhostErrorOptions<DiscoveryErrorCode> {
  /** Registered or original name of the tool or prompt involved. */
  readonly toolName?: string | undefined;
  /** The MCP list method involved (`tools/list`...). */
  readonly method?: string | undefined;
  /** JSON-RPC error code returned by the server, when there was one. */
  readonly mcpCode?: number | undefined;
}

/**
 * The error of `@toolhost/discovery` (family `discovery`).
 *
 * @example
 * ```ts
 * if (DiscoveryError.isInstance(e) && e.code === 'CONNECTION_CLOSED') retryLater(e.serverName);
 * ```
 */
export class DiscoveryError extends ToolhostError<DiscoveryErrorCode> {
  /** The family of these errors: `discovery`. */
  static override readonly family = 'discovery';
  /** The codes a `DiscoveryError` can carry. */
  static override readonly codes = DISCOVERY_ERROR_CODES;
  /** Registered or original name of the tool or prompt involved. */
  readonly toolName: string | undefined;
  /** The MCP list method involved. */
  readonly method: string | undefined;
  /** JSON-RPC error code returned by the server, when there was one. */
  readonly mcpCode: number | undefined;

  /** Create an error; `message` says what happened, to which server, and what to do. */
  constructor(options: DiscoveryErrorOptions) {
    super(options);
    this.toolName = options.toolName;
    this.method = options.method;
    this.mcpCode = options.mcpCode;
  }
}
