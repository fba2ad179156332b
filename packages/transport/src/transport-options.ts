import type { OAuthClientProvider, FetchLike, Transport } from '@modelcontextprotocol/client';
import type { AuthChallenge } from './create-http-fetch.js';
import type { TransportKind } from './resolve-transport-kind.js';
import type { SanitizeEnvironmentOptions } from './sanitize-environment.js';
import type { StderrBuffer } from './stderr-buffer.js';
import type { StderrEvent } from './stderr-stream.js';

/** Options of `createTransport` (and, through it, `connectTransport`). */
export interface TransportOptions {
  /** Name of the server entry; every error names it. */
  serverName: string;
  /** `fetch` used for HTTP and SSE requests. @default globalThis.fetch */
  fetch?: FetchLike;
  /** OAuth provider handed to the SDK's HTTP and SSE transports (ignored for stdio). */
  authProvider?: OAuthClientProvider;
  /** Environment the stdio child inherits from (only allowlisted names pass, see `sanitizeEnvironment`). @default process.env */
  env?: Readonly<Record<string, string | undefined>>;
  /** Which inherited variables to keep or drop besides the built-in allowlist. */
  environment?: SanitizeEnvironmentOptions;
  /** Extra `RequestInit` for HTTP requests; the entry's `headers` are merged over its headers. */
  requestInit?: RequestInit;
  /** Lines of stdio stderr kept for diagnostics. @default 100 */
  stderrLines?: number;
  /**
   * Called with every line a stdio server writes to stderr, as it comes (Gemini CLI's debug mode
   * logs them), at most `stderrLinesPerSecond` a second: the excess is reported as one `dropped`
   * count per second. Lines are raw server text, at most 4096 characters: escape them before
   * printing. Ignored for remote servers.
   */
  onStderr?: (event: StderrEvent) => void;
  /** Rate bound of `onStderr`, in lines per second. @default 100 */
  stderrLinesPerSecond?: number;
  /** Wait after closing stdin, and after SIGTERM, before escalating. @default 2000 */
  closeGraceMs?: number;
  /**
   * The same wait for a stdio server started through a package runner (`npx`, `uvx`, `pnpm dlx`...)
   * that has not answered yet, so it can finish (or roll back) installing the package instead of
   * leaving a broken install in its cache. @default 60000
   */
  installGraceMs?: number;
  /** Time allowed for the Streamable HTTP session DELETE on close. @default 2000 */
  sessionDeleteTimeoutMs?: number;
  /**
   * Cap of one message from the server, in bytes: a stdio line, an SSE event (Streamable HTTP
   * and legacy SSE) or a JSON response body. A message over it fails with `MESSAGE_TOO_LARGE`
   * naming the server and the limit. @default 33554432 (32 MiB, `DEFAULT_MAX_MESSAGE_BYTES`)
   */
  maxMessageBytes?: number;
  /**
   * Streamable HTTP only: join this existing session (its `Mcp-Session-Id`) instead of starting
   * one; the client must not send `initialize` itself (a connection pool answers it from the
   * session's own handshake). No GET stream is opened by the joining transport.
   */
  sessionId?: string;
  /**
   * Streamable HTTP only: end the session with DELETE on `close()`. A transport that joined a
   * shared session (`sessionId`) passes `false`: the session belongs to its pool. @default true
   */
  endSessionOnClose?: boolean;
}

/** A transport built from a server entry, not yet connected. */
export interface TransportHandle {
  /** The SDK transport to give to `Client.connect`. */
  transport: Transport;
  /** Which transport it is. */
  kind: TransportKind;
  /** Last stderr lines of a stdio server (`undefined` for remote servers). Never printed. */
  stderr: StderrBuffer | undefined;
  /** Process id of a started stdio server. */
  readonly pid: number | undefined;
  /** The last 401/403 challenge a remote server answered, for the OAuth layer. */
  authChallenge: () => AuthChallenge | undefined;
  /** Closes the transport (stdio: stdin, SIGTERM, SIGKILL to the process group; Streamable HTTP: DELETE the session). */
  close: () => Promise<void>;
}
