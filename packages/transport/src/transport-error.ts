const BRAND = Symbol.for('toolhost.transport');

/** Stable codes of {@link TransportError}. */
export type TransportErrorCode =
  /** The entry has none of `command`, `url`, `httpUrl`, or a URL that does not parse. */
  | 'INVALID_CONFIG'
  /** The stdio `cwd` does not exist or is not a folder (checked before spawning). */
  | 'CWD_NOT_FOUND'
  /** The stdio command could not be started (not found, not executable...). */
  | 'SPAWN_FAILED'
  /** The stdio server process exited, or the connection closed, before or while connecting. */
  | 'CONNECTION_CLOSED'
  /** A remote server answered an HTTP error status that is not an auth challenge. */
  | 'HTTP_STATUS'
  /** A remote server answered 401: authentication (OAuth) is needed. `wwwAuthenticate` is kept. */
  | 'AUTH_REQUIRED'
  /** A remote server answered 403. `wwwAuthenticate` is kept (e.g. `insufficient_scope`). */
  | 'FORBIDDEN'
  /** The server forgot the session and re-initializing once did not bring it back. */
  | 'SESSION_EXPIRED'
  /** The server could not be reached or the connection failed for another reason (see `cause`). */
  | 'CONNECT_FAILED'
  /** A message was sent on a transport that is not started or already closed. */
  | 'NOT_CONNECTED';

/** Structured details of a {@link TransportError}. */
export interface TransportErrorDetails {
  /** Name of the server entry in `mcpServers`. */
  serverName: string;
  /** HTTP status, for `HTTP_STATUS`, `AUTH_REQUIRED`, `FORBIDDEN`, `SESSION_EXPIRED`. */
  status?: number;
  /** URL of a remote server. */
  url?: string;
  /** Working directory, for `CWD_NOT_FOUND`. */
  cwd?: string;
  /** Command, for stdio errors. */
  command?: string;
  /** Raw `WWW-Authenticate` header of a 401/403, for the OAuth layer. */
  wwwAuthenticate?: string;
  /** `resource_metadata` parameter of `WWW-Authenticate`, when present. */
  resourceMetadataUrl?: string;
  /** `scope` parameter of `WWW-Authenticate`, when present. */
  scope?: string;
  /** Last stderr lines of a stdio server, when they help explain the failure. */
  stderr?: readonly string[];
  /** The underlying error. */
  cause?: unknown;
}

/**
 * The one error family of `@toolhost/transport`. Match on `code`, never on the message.
 * @example
 * if (TransportError.isInstance(error) && error.code === 'AUTH_REQUIRED') startOAuth(error.wwwAuthenticate);
 */
export class TransportError extends Error {
  /** Stable machine-readable reason. */
  readonly code: TransportErrorCode;
  /** Name of the server entry. */
  readonly serverName: string;
  /** HTTP status, when one was received. */
  readonly status: number | undefined;
  /** URL of a remote server. */
  readonly url: string | undefined;
  /** Working directory of a stdio server. */
  readonly cwd: string | undefined;
  /** Command of a stdio server. */
  readonly command: string | undefined;
  /** Raw `WWW-Authenticate` header of a 401/403. */
  readonly wwwAuthenticate: string | undefined;
  /** `resource_metadata` from `WWW-Authenticate`. */
  readonly resourceMetadataUrl: string | undefined;
  /** `scope` from `WWW-Authenticate`. */
  readonly scope: string | undefined;
  /** Last stderr lines of a stdio server. */
  readonly stderr: readonly string[] | undefined;
  private readonly [BRAND] = true;

  constructor(code: TransportErrorCode, message: string, details: TransportErrorDetails) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = 'TransportError';
    this.code = code;
    this.serverName = details.serverName;
    this.status = details.status;
    this.url = details.url;
    this.cwd = details.cwd;
    this.command = details.command;
    this.wwwAuthenticate = details.wwwAuthenticate;
    this.resourceMetadataUrl = details.resourceMetadataUrl;
    this.scope = details.scope;
    this.stderr = details.stderr;
  }

  /** True for a `TransportError` from any copy of this package. */
  static isInstance(error: unknown): error is TransportError {
    return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[BRAND] === true;
  }
}
