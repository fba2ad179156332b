import { ToolhostError, type ErrorCode, type ToolhostErrorOptions } from '@toolhost/contract';

const CONNECTION_ERROR_CODES = [
  'CAPABILITY_NOT_SUPPORTED',
  'INVALID_ROOT',
  'INVALID_OPTIONS',
  'CONNECTION_POOL_FULL',
  'CONNECTION_CLOSED',
  'INVALID_RESPONSE',
] as const satisfies readonly ErrorCode[];

/**
 * Stable codes of {@link ConnectionError} (each explained in the contract's `ERROR_CODES`):
 * - `CAPABILITY_NOT_SUPPORTED`: the server does not declare the capability a request needs (`logging`, `resources.subscribe`).
 * - `INVALID_ROOT`: a project folder is not an absolute path, so it cannot be offered as a `file://` root.
 * - `INVALID_OPTIONS`: a connection pool's options are out of range, or the pool was not made by `createConnectionPool`.
 * - `CONNECTION_POOL_FULL`: every stdio process of the connection pool stayed busy for `acquireTimeoutMs`.
 * - `CONNECTION_CLOSED`: a request was not sent on a pooled connection that must close (the host's credentials changed).
 * - `INVALID_RESPONSE`: a server sent a task the client cannot use (`./tasks`: `parseTask`, `getTask`).
 */
export type ConnectionErrorCode = (typeof CONNECTION_ERROR_CODES)[number];

/** Fields of a {@link ConnectionError}: the common `code`, `message`, `serverName`, `cause`, plus the resource involved. */
export interface ConnectionErrorOptions extends ToolhostErrorOptions<ConnectionErrorCode> {
  /** The resource URI involved (a subscription), when there is one. */
  readonly uri?: string | undefined;
}

/**
 * The error of `@toolhost/connection` (family `connection`). Match on `code`, never on the message.
 * `McpToolHost` turns it into a `HostError` with the same code and message before its callers see it.
 *
 * @example
 * ```ts
 * if (ConnectionError.isInstance(error) && error.code === 'CAPABILITY_NOT_SUPPORTED') console.log(error.message);
 * ```
 */
export class ConnectionError extends ToolhostError<ConnectionErrorCode> {
  /** The family of these errors: `connection`. */
  static override readonly family = 'connection';
  /** The codes a `ConnectionError` can carry. */
  static override readonly codes = CONNECTION_ERROR_CODES;
  /** The resource URI involved, when there is one. */
  readonly uri: string | undefined;

  /** Creates an error; see {@link ConnectionErrorOptions}. */
  constructor(options: ConnectionErrorOptions) {
    super(options);
    this.uri = options.uri;
  }
}
