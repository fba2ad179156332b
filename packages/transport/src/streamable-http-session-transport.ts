import { isInitializeRequest, SdkHttpError } from '@modelcontextprotocol/client';
import type {
  StreamableHTTPClientTransport,
  Transport,
  TransportSendOptions,
  JSONRPCMessage,
  JSONRPCRequest,
} from '@modelcontextprotocol/client';
import type { HttpObservations, StreamEnd } from './create-http-fetch.js';
import { deliverMessage } from './deliver-message.js';
import { initializeSession } from './initialize-session.js';
import { errorAnswers } from './message-limits.js';
import { TransportError } from './transport-error.js';

/** True for MCP 2026-07-28 and later (no sessions: a broken answer stream loses only its request). */
function isModernRevision(version: string | undefined): boolean {
  return version !== undefined && version >= '2026-07-28';
}

/**
 * JSON-RPC error code of the answer given to a request whose answer stream broke twice on MCP
 * 2026-07-28 (in the implementation-defined server-error range).
 */
export const ANSWER_STREAM_LOST = -32099;

/** A request in flight, kept so that it can be sent again. */
interface OutstandingRequest {
  readonly message: JSONRPCRequest;
  readonly options: TransportSendOptions | undefined;
  /** Already the re-issued copy of a request whose answer stream broke. */
  readonly reissued: boolean;
}

/** Default time allowed for the session DELETE on close. */
export const DEFAULT_SESSION_DELETE_TIMEOUT_MS = 2000;

/** Options of {@link StreamableHttpSessionTransport}. */
export interface StreamableHttpSessionTransportOptions {
  /** Name of the server entry, used in errors. */
  serverName: string;
  /** URL of the server, used in errors: pass it masked (`maskUrl`), a query may hold a token. */
  url: string;
  /** Builds a fresh SDK transport (one per session); the first one joins `sessionId` when given. */
  createTransport: (sessionId?: string) => StreamableHTTPClientTransport;
  /** Join this existing session instead of starting one (a connection pool's shared session). */
  sessionId?: string;
  /** End the session with DELETE on `close()`; `false` for a transport that joined a shared session. @default true */
  endSessionOnClose?: boolean;
  /** The observations of the fetch given to `createTransport`; used to notice a server that went away. */
  observations?: HttpObservations;
  /** Time allowed for the re-initialize handshake. @default 30000 */
  reinitializeTimeoutMs?: number;
  /** Time allowed for the session DELETE on close. @default 2000 */
  deleteTimeoutMs?: number;
}

function describe(error: unknown): string {
  const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : '';
  return error instanceof Error ? `${error.message}${cause}` : String(error);
}

function isSessionNotFound(error: unknown): boolean {
  return error instanceof SdkHttpError && error.status === 404;
}

/**
 * Streamable HTTP with session care: when the server answers 404 to a request that carried a
 * session id, it starts a new session once (initialize + initialized, with the parameters the
 * client first used) and retries the request; a second 404 fails with `SESSION_EXPIRED`.
 * `close()` ends the session with DELETE (405 accepted) before closing.
 */
export class StreamableHttpSessionTransport implements Transport {
  /** See `Transport.onclose`. */
  onclose?: () => void;
  /** See `Transport.onerror`. */
  onerror?: (error: Error) => void;
  /** See `Transport.onmessage`. */
  onmessage?: (message: JSONRPCMessage) => void;
  readonly #options: StreamableHttpSessionTransportOptions;
  #inner: StreamableHTTPClientTransport;
  #generation = 0;
  #initializeParams: JSONRPCRequest['params'];
  #protocolVersion: string | undefined;
  #reinitializing: Promise<void> | undefined;
  readonly #pending = new Map<string, (message: JSONRPCMessage) => void>();
  #closing = false;
  /** Requests sent and not answered yet, by the id on the wire, with what is needed to re-issue them. */
  readonly #outstanding = new Map<string | number, OutstandingRequest>();
  /** Re-issued requests: the id the client knows, by the id on the wire. */
  readonly #reissuedAs = new Map<string | number, string | number>();
  #reissueCount = 0;

  constructor(options: StreamableHttpSessionTransportOptions) {
    this.#options = options;
    this.#inner = this.#attach(options.createTransport(options.sessionId));
    if (options.observations) {
      options.observations.onStreamEnd = (end) => this.#streamEnded(end);
      options.observations.onMessageTooLarge = (error, end) => this.#tooLarge(error, end.requestIds);
      options.observations.onFetchFailed = (error, method) => {
        // Before initialize was answered, the failing send reports the error itself.
        if (method === 'DELETE' || this.#protocolVersion === undefined) return;
        // Deferred so that the request whose send failed gets that error, not a generic close.
        setTimeout(() => this.#lost(`it cannot be reached (${describe(error)})`, error), 0);
      };
    }
  }

  /** Session id of the current session, if the server gave one. */
  get sessionId(): string | undefined {
    return this.#inner.sessionId;
  }

  /** How many times a new session was started after the server forgot one. */
  get reinitializations(): number {
    return this.#generation;
  }

  /** See `Transport.start`. */
  start(): Promise<void> {
    return this.#inner.start();
  }

  /** See `Transport.setProtocolVersion`. */
  setProtocolVersion(version: string): void {
    this.#protocolVersion = version;
    this.#inner.setProtocolVersion(version);
  }

  /** Completes an OAuth authorization-code flow on the current SDK transport. */
  finishAuth(authorizationCode: string): Promise<void> {
    return this.#inner.finishAuth(authorizationCode);
  }

  /** Sends a message; a 404 for a known session re-initializes once, then retries. */
  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    if (isInitializeRequest(message)) this.#initializeParams = message.params;
    if ('method' in message && 'id' in message)
      this.#outstanding.set(message.id, { message: message as JSONRPCRequest, options, reissued: false });
    if ('method' in message && message.method === 'notifications/cancelled') {
      // A cancelled request gets no answer; its stream ending must not look like a lost server.
      const requestId = (message.params as { requestId?: string | number } | undefined)?.requestId;
      if (requestId !== undefined) {
        const wireId = this.#wireIdOf(requestId);
        this.#outstanding.delete(wireId);
        if (wireId !== requestId) {
          this.#reissuedAs.delete(wireId);
          message = { ...message, params: { ...message.params, requestId: wireId } };
        }
      }
    }
    try {
      await this.#sendRecovering(message, options);
    } catch (error) {
      if ('method' in message && 'id' in message) this.#outstanding.delete(message.id);
      throw error;
    }
  }

  async #sendRecovering(message: JSONRPCMessage, options: TransportSendOptions | undefined): Promise<void> {
    const generation = this.#generation;
    const hadSession = this.#inner.sessionId !== undefined;
    try {
      await this.#inner.send(message, options);
      return;
    } catch (error) {
      if (!isSessionNotFound(error) || !hadSession || this.#initializeParams === undefined || this.#closing) throw error;
    }
    if (generation === this.#generation) {
      this.#reinitializing ??= this.#reinitialize().finally(() => {
        this.#reinitializing = undefined;
      });
    }
    await this.#reinitializing;
    try {
      await this.#inner.send(message, options);
    } catch (error) {
      if (isSessionNotFound(error)) throw this.#expired('the new session was forgotten at once', error);
      throw error;
    }
  }

  /** Ends the session with DELETE (bounded wait, errors ignored; not for a joined shared session), then closes. */
  async close(): Promise<void> {
    this.#closing = true;
    if (this.#options.endSessionOnClose === false) {
      await this.#inner.close();
      return;
    }
    const timeout = this.#options.deleteTimeoutMs ?? DEFAULT_SESSION_DELETE_TIMEOUT_MS;
    await Promise.race([
      this.#inner.terminateSession().catch(() => undefined),
      new Promise((resolve) => setTimeout(resolve, timeout).unref()),
    ]);
    await this.#inner.close();
  }

  #attach(inner: StreamableHTTPClientTransport): StreamableHTTPClientTransport {
    inner.onclose = () => {
      if (inner === this.#inner) this.onclose?.();
    };
    inner.onerror = (error) => {
      // A 404 for a known session is handled in send(); reporting it too would only add noise.
      if (isSessionNotFound(error) && inner.sessionId !== undefined) return;
      if (inner === this.#inner && !this.#closing) this.onerror?.(error);
    };
    inner.onmessage = (message: JSONRPCMessage) => {
      // The SDK's transport parsed the message with its JSON-RPC message schema: without a method it is a response.
      if (!('method' in message)) {
        const waiter = typeof message.id === 'string' ? this.#pending.get(message.id) : undefined;
        if (waiter) {
          waiter(message);
          return;
        }
        if (message.id !== undefined) {
          this.#outstanding.delete(message.id);
          const original = this.#reissuedAs.get(message.id);
          if (original !== undefined) {
            // The answer to a re-issued request goes to the request the client made.
            this.#reissuedAs.delete(message.id);
            message = { ...message, id: original };
          }
        }
      }
      if (inner === this.#inner) deliverMessage(this, message, this.#options.serverName);
    };
    return inner;
  }

  async #reinitialize(): Promise<void> {
    const previous = this.#inner;
    previous.onclose = undefined;
    previous.onerror = undefined;
    void previous.close().catch(() => undefined);
    this.#generation += 1;
    const next = this.#attach(this.#options.createTransport());
    this.#inner = next;
    const id = `toolhost-reinitialize-${this.#generation}`;
    try {
      await initializeSession({
        transport: next,
        id,
        params: this.#initializeParams,
        fallbackProtocolVersion: this.#protocolVersion,
        timeoutMs: this.#options.reinitializeTimeoutMs ?? 30_000,
        waitForResponse: (waitId) => new Promise((resolve) => this.#pending.set(waitId, resolve)),
      });
    } catch (error) {
      throw this.#expired('starting a new session failed', error);
    } finally {
      this.#pending.delete(id);
    }
  }

  /**
   * A POST answer stream that ends without the answer (and cannot be resumed): on MCP 2026-07-28,
   * where a broken answer stream loses only that request, the request is re-issued once under a
   * new id, and fails with an error naming the server if that one is lost too. On older
   * revisions it means the server went away. A broken GET stream is left to the SDK, which
   * reconnects it; if that reconnect cannot reach the server, `onFetchFailed` reports the loss.
   */
  #streamEnded(end: StreamEnd): void {
    if (this.#closing || end.method !== 'POST' || end.resumable) return;
    // Let the SDK finish parsing what the stream delivered before deciding an answer is missing.
    setTimeout(() => {
      // Nothing awaited (the usual case: the answer came): no request of this stream can be lost.
      if (this.#outstanding.size === 0) return;
      // A request sent with its own stream-end handler (the SDK's `subscriptions/listen`) is the SDK's to reopen.
      const lost = end.requestIds.filter((id) => {
        const request = this.#outstanding.get(id);
        return request !== undefined && request.options?.onRequestStreamEnd === undefined;
      });
      if (lost.length === 0 || this.#closing) return;
      if (!isModernRevision(this.#protocolVersion)) {
        this.#lost('it dropped the connection before answering a request', undefined);
        return;
      }
      for (const id of lost) this.#reissue(id);
    }, 20).unref?.();
  }

  /**
   * An event of an answer stream went over the size limit: the requests of that POST fail with
   * the limit error (the connection stays up). On the GET stream, the error is reported.
   */
  #tooLarge(error: Error, requestIds: readonly (string | number)[]): void {
    if (this.#closing) return;
    const lost = requestIds.filter((id) => this.#outstanding.has(id));
    if (lost.length === 0) {
      this.onerror?.(error);
      return;
    }
    for (const wireId of lost) {
      this.#outstanding.delete(wireId);
      const clientId = this.#reissuedAs.get(wireId) ?? wireId;
      this.#reissuedAs.delete(wireId);
      for (const answer of errorAnswers([clientId], error)) deliverMessage(this, answer, this.#options.serverName);
    }
  }

  /** The id a request the client knows as `clientId` has on the wire now. */
  #wireIdOf(clientId: string | number): string | number {
    for (const [wireId, original] of this.#reissuedAs) if (original === clientId) return wireId;
    return clientId;
  }

  #reissue(wireId: string | number): void {
    const request = this.#outstanding.get(wireId);
    if (!request) return;
    this.#outstanding.delete(wireId);
    const clientId = this.#reissuedAs.get(wireId) ?? wireId;
    this.#reissuedAs.delete(wireId);
    if (request.reissued) {
      const { serverName, url } = this.#options;
      deliverMessage(
        this,
        {
          jsonrpc: '2.0',
          id: clientId,
          error: {
            code: ANSWER_STREAM_LOST,
            message: `MCP server '${serverName}' (${url}) dropped the answer stream of ${request.message.method} twice: the request was sent again once and lost again. The server may have done the work or not; check before retrying.`,
          },
        },
        serverName,
      );
      return;
    }
    this.#reissueCount += 1;
    const nextId = `toolhost-reissue-${this.#reissueCount}`;
    const message: JSONRPCRequest = { ...request.message, id: nextId };
    this.#outstanding.set(nextId, { message, options: request.options, reissued: true });
    this.#reissuedAs.set(nextId, clientId);
    this.#sendRecovering(message, request.options).catch((error: unknown) => {
      this.#outstanding.delete(nextId);
      this.#reissuedAs.delete(nextId);
      this.onerror?.(error instanceof Error ? error : new Error(String(error)));
    });
  }

  /** Reports the loss through `onerror`, then closes, which fails every call in flight at once. */
  #lost(detail: string, cause: unknown): void {
    if (this.#closing) return;
    const { serverName, url } = this.#options;
    this.onerror?.(
      new TransportError({
        code: 'CONNECTION_CLOSED',
        message: `MCP server '${serverName}' (${url}) went away: ${detail}.`,
        serverName,
        url,
        cause,
      }),
    );
    void this.close();
  }

  #expired(detail: string, cause: unknown): TransportError {
    const { serverName, url } = this.#options;
    return new TransportError({
      code: 'SESSION_EXPIRED',
      message: `MCP server '${serverName}' (${url}) ended the session and ${detail}; reconnect to the server to continue.`,
      serverName,
      url,
      status: 404,
      cause,
    });
  }
}
