import { ToolhostError, type ErrorCode, type ToolhostErrorOptions } from '@toolhost/contract';

const TRANSPORT_ERROR_CODES = [
  'INVALID_CONFIG',
  'CWD_NOT_FOUND',
  'SPAWN_FAILED',
  'CONNECTION_CLOSED',
  'MESSAGE_TOO_LARGE',
  'HTTP_STATUS',
  'AUTH_REQUIRED',
  'FORBIDDEN',
  'SESSION_EXPIRED',
  'INVALID_SESSION_ID',
  'CONNECT_FAILED',
  'PROTOCOL_VERSION_MISMATCH',
  'SERVER_NOT_CONNECTED',
  'INVALID_RESPONSE',
] as const satisfies readonly ErrorCode[];

/**
 * Stable codes of {@link TransportError} (each explained in the contract's `ERROR_CODES`):
 * - `INVALID_CONFIG`: the entry has none of `command`, `url`, `httpUrl`, or a URL that does not parse.
 * - `CWD_NOT_FOUND`: the stdio `cwd` does not exist or is not a folder (checked before spawning).
 * - `SPAWN_FAILED`: the stdio command could not be started (not found, not executable...).
 * - `CONNECTION_CLOSED`: the stdio server process exited (`exitCode`, `exitSignal`, `stderr` say how), or the connection closed, before or while connecting.
 * - `MESSAGE_TOO_LARGE`: the server sent a message (stdio line, SSE event, JSON body) over `maxMessageBytes`.
 * - `HTTP_STATUS`: a remote server answered an HTTP error status that is not an auth challenge.
 * - `AUTH_REQUIRED`: a remote server answered 401: authentication (OAuth) is needed. `wwwAuthenticate` is kept.
 * - `FORBIDDEN`: a remote server answered 403. `wwwAuthenticate` is kept (e.g. `insufficient_scope`).
 * - `SESSION_EXPIRED`: the server forgot the session and re-initializing once did not bring it back.
 * - `INVALID_SESSION_ID`: a Streamable HTTP server sent an `Mcp-Session-Id` outside visible ASCII (0x21–0x7E); it was not adopted.
 * - `CONNECT_FAILED`: the server could not be reached or the connection failed for another reason (see `cause`).
 * - `PROTOCOL_VERSION_MISMATCH`: the server does not speak the MCP revision offered or pinned; `requestedVersion` and `supportedVersions` say which.
 * - `SERVER_NOT_CONNECTED`: a message was sent on a transport that is not started or already closed.
 * - `INVALID_RESPONSE`: a message from the server could not be processed (its handler failed); it was dropped, and the request it answered failed.
 */
export type TransportErrorCode = (typeof TRANSPORT_ERROR_CODES)[number];

/** Fields of a {@link TransportError}: the common `code`, `message`, `serverName`, `cause`, plus what failed. */
export interface TransportErrorOptions extends ToolhostErrorOptions<TransportErrorCode> {
  /** Name of the server entry in `mcpServers`. */
  readonly serverName: string;
  /** HTTP status, for `HTTP_STATUS`, `AUTH_REQUIRED`, `FORBIDDEN`, `SESSION_EXPIRED`. */
  readonly status?: number | undefined;
  /** URL of a remote server. */
  readonly url?: string | undefined;
  /** Working directory, for `CWD_NOT_FOUND`. */
  readonly cwd?: string | undefined;
  /** Command, for stdio errors. */
  readonly command?: string | undefined;
  /** Raw `WWW-Authenticate` header of a 401/403, for the OAuth layer. */
  readonly wwwAuthenticate?: string | undefined;
  /** `resource_metadata` parameter of `WWW-Authenticate`, when present. */
  readonly resourceMetadataUrl?: string | undefined;
  /** `scope` parameter of `WWW-Authenticate`, when present. */
  readonly scope?: string | undefined;
  /** Last stderr lines of a stdio server, when they help explain the failure. */
  readonly stderr?: readonly string[] | undefined;
  /** For a stdio server that exited while connecting: its exit code (`null` when a signal ended it). */
  readonly exitCode?: number | null | undefined;
  /** For a stdio server that a signal ended while connecting: the signal (`SIGKILL`...). */
  readonly exitSignal?: string | null | undefined;
  /** For `PROTOCOL_VERSION_MISMATCH`: the revision the client asked for. */
  readonly requestedVersion?: string | undefined;
  /** For `PROTOCOL_VERSION_MISMATCH`: the revisions the server said it speaks, when it said. */
  readonly supportedVersions?: readonly string[] | undefined;
}

/**
 * The error of `@toolhost/transport` (family `transport`). Match on `code`, never on the message.
 *
 * @example
 * ```ts
 * if (TransportError.isInstance(error) && error.code === 'AUTH_REQUIRED') startOAuth(error.wwwAuthenticate);
 * ```
 */
export class TransportError extends ToolhostError<TransportErrorCode> {
  /** The family of these errors: `transport`. */
  static override readonly family = 'transport';
  /** The codes a `TransportError` can carry. */
  static override readonly codes = TRANSPORT_ERROR_CODES;
  /** Name of the server entry. */
  declare readonly serverName: string;
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
  /** Exit code of a stdio server that exited while connecting (`null`: a signal ended it). */
  readonly exitCode: number | null | undefined;
  /** Signal that ended a stdio server while connecting. */
  readonly exitSignal: string | null | undefined;
  /** The revision the client asked for (`PROTOCOL_VERSION_MISMATCH`). */
  readonly requestedVersion: string | undefined;
  /** The revisions the server said it speaks (`PROTOCOL_VERSION_MISMATCH`). */
  readonly supportedVersions: readonly string[] | undefined;

  /** Creates an error; see {@link TransportErrorOptions}. */
  constructor(options: TransportErrorOptions) {
    super(options);
    this.status = options.status;
    this.url = options.url;
    this.cwd = options.cwd;
    this.command = options.command;
    this.wwwAuthenticate = options.wwwAuthenticate;
    this.resourceMetadataUrl = options.resourceMetadataUrl;
    this.scope = options.scope;
    this.stderr = options.stderr;
    this.exitCode = options.exitCode;
    this.exitSignal = options.exitSignal;
    this.requestedVersion = options.requestedVersion;
    this.supportedVersions = options.supportedVersions;
  }
}
