const BRAND = Symbol.for('toolhost.discovery');

/** Stable codes of {@link DiscoveryError}; match on these, never on message text. */
export const DiscoveryErrorCode = {
  /** The server could not be reached or the MCP handshake failed. */
  CONNECT_FAILED: 'CONNECT_FAILED',
  /** Connecting and discovering took longer than the server's timeout. */
  DISCOVERY_TIMEOUT: 'DISCOVERY_TIMEOUT',
  /** A list request failed with an error other than MethodNotFound. */
  LIST_FAILED: 'LIST_FAILED',
  /** A list response repeated a cursor it had already returned. */
  PAGINATION_CURSOR_REPEATED: 'PAGINATION_CURSOR_REPEATED',
  /** A list kept returning pages past the `maxPages` limit. */
  PAGINATION_LIMIT_EXCEEDED: 'PAGINATION_LIMIT_EXCEEDED',
  /** The server offers no tools, prompts or resources, so it was disconnected. */
  NOTHING_OFFERED: 'NOTHING_OFFERED',
  /** The connection to a connected server closed (the process exited, the HTTP server went away). */
  CONNECTION_CLOSED: 'CONNECTION_CLOSED',
  /** No server with this name is configured. */
  SERVER_NOT_FOUND: 'SERVER_NOT_FOUND',
  /** The server is configured but not connected right now. */
  SERVER_NOT_CONNECTED: 'SERVER_NOT_CONNECTED',
  /** No tool is registered under this name. */
  TOOL_NOT_FOUND: 'TOOL_NOT_FOUND',
  /** No prompt is registered under this name. */
  PROMPT_NOT_FOUND: 'PROMPT_NOT_FOUND',
  /** No connected server lists this resource. */
  RESOURCE_NOT_FOUND: 'RESOURCE_NOT_FOUND',
  /** A request to the server did not answer in time. */
  REQUEST_TIMEOUT: 'REQUEST_TIMEOUT',
  /** The caller aborted the request. */
  REQUEST_CANCELLED: 'REQUEST_CANCELLED',
  /** The server answered a request with an error. */
  REQUEST_FAILED: 'REQUEST_FAILED',
  /** Two servers were configured with the same name. */
  DUPLICATE_SERVER_NAME: 'DUPLICATE_SERVER_NAME',
  /** The server is blocked by a policy (allow or exclude list) and was not started. */
  SERVER_BLOCKED: 'SERVER_BLOCKED',
  /** The server is disabled and was not started. */
  SERVER_DISABLED: 'SERVER_DISABLED',
  /** Reconnecting a server that went away failed `maxAttempts` times in a row. */
  RECONNECT_GAVE_UP: 'RECONNECT_GAVE_UP',
  /** The manager was closed; it cannot be used again. */
  MANAGER_CLOSED: 'MANAGER_CLOSED',
} as const;

/** One of the values of {@link DiscoveryErrorCode}. */
export type DiscoveryErrorCode = (typeof DiscoveryErrorCode)[keyof typeof DiscoveryErrorCode];

/** Fields of a {@link DiscoveryError}. */
export interface DiscoveryErrorOptions {
  /** Stable code of the failure. */
  code: DiscoveryErrorCode;
  /** Server the failure belongs to. */
  serverName?: string;
  /** Registered or original name of the tool or prompt involved. */
  toolName?: string;
  /** The MCP list method involved (`tools/list`...). */
  method?: string;
  /** JSON-RPC error code returned by the server, when there was one. */
  mcpCode?: number;
  /** The underlying error. */
  cause?: unknown;
}

/**
 * Base class of every error raised by `@toolhost/discovery`.
 *
 * @example
 * if (DiscoveryError.isInstance(e) && e.code === 'CONNECTION_CLOSED') retryLater(e.serverName);
 */
export class DiscoveryError extends Error {
  private readonly [BRAND] = true;
  /** Stable code of the failure. */
  readonly code: DiscoveryErrorCode;
  /** Server the failure belongs to. */
  readonly serverName: string | undefined;
  /** Registered or original name of the tool or prompt involved. */
  readonly toolName: string | undefined;
  /** The MCP list method involved. */
  readonly method: string | undefined;
  /** JSON-RPC error code returned by the server, when there was one. */
  readonly mcpCode: number | undefined;

  /** Create an error; `message` says what happened, to which server, and what to do. */
  constructor(message: string, options: DiscoveryErrorOptions) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'DiscoveryError';
    this.code = options.code;
    this.serverName = options.serverName;
    this.toolName = options.toolName;
    this.method = options.method;
    this.mcpCode = options.mcpCode;
  }

  /** True for any `DiscoveryError`, even one from another copy of this package. */
  static isInstance(error: unknown): error is DiscoveryError {
    return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[BRAND] === true;
  }
}
