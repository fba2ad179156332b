import { isJSONRPCNotification, isJSONRPCRequest, SdkHttpError } from '@modelcontextprotocol/client';
import type { JSONRPCMessage, MessageExtraInfo, Transport, TransportSendOptions } from '@modelcontextprotocol/client';

type RequestId = string | number;

/** What a member needs from the shared session it joined. */
export interface SharedSessionHooks {
  /** The session's `initialize` result, given to each joining client instead of a second handshake. */
  readonly initializeResult: () => Record<string, unknown>;
  /** The member subscribed to a resource. */
  readonly subscribe: (uri: string, member: SharedSessionMember) => void;
  /** The member unsubscribed; true when another member still follows the resource (the request is then answered here). */
  readonly unsubscribe: (uri: string, member: SharedSessionMember) => boolean;
  /** The server no longer knows the session (404): every member must reconnect. */
  readonly sessionGone: () => void;
  /** The member closed; resolves once the session is ended too when it was the last member. */
  readonly leave: (member: SharedSessionMember) => Promise<void>;
}

/** True for the answer of a server that forgot the session. */
export function isSessionGone(error: unknown): boolean {
  return error instanceof SdkHttpError && error.status === 404;
}

/**
 * One host's transport on a Streamable HTTP session it shares with other hosts (2025-era MCP).
 * It has its own HTTP requests, so the server's answers, and the server-to-client requests it
 * relates to one of this host's requests (elicitation, sampling, roots on the request's answer
 * stream), arrive here and nowhere else. It:
 *
 * - answers the client's `initialize` with the session's own result (the session was initialized
 *   once, by the pool) and keeps `notifications/initialized` to itself (no second GET stream);
 * - puts a prefix unique to the member on the ids of its requests on the wire (and takes it off
 *   the answers), so that two hosts' requests never share an id in the one session;
 * - counts resource subscriptions across members (an unsubscribe another member still needs is
 *   answered here);
 * - receives the session's notifications (list changes, log messages, resource updates) from the
 *   pool, through {@link SharedSessionMember.deliver}.
 */
export class SharedSessionMember implements Transport {
  /** See `Transport.onclose`. */
  onclose?: () => void;
  /** See `Transport.onerror`. */
  onerror?: (error: Error) => void;
  /** See `Transport.onmessage`. */
  onmessage?: (message: JSONRPCMessage, extra?: MessageExtraInfo) => void;
  readonly #inner: Transport;
  readonly #session: SharedSessionHooks;
  readonly #prefix: string;
  /** The client's id of each request on the wire, by wire id. */
  readonly #wireIds = new Map<string, RequestId>();
  #joined = false;
  #closed = false;

  constructor(inner: Transport, session: SharedSessionHooks, prefix: string) {
    this.#inner = inner;
    this.#session = session;
    this.#prefix = prefix;
    inner.onmessage = (message, extra) => this.#receive(message, extra);
    inner.onerror = (error) => {
      if (isSessionGone(error)) session.sessionGone();
      this.onerror?.(error);
    };
    inner.onclose = () => {
      this.#closed = true;
      this.onclose?.();
    };
  }

  /** The shared session's id, once the client has joined it. */
  get sessionId(): string | undefined {
    return this.#joined ? this.#inner.sessionId : undefined;
  }

  /** See `Transport.start`. */
  start(): Promise<void> {
    return this.#inner.start();
  }

  /** See `Transport.setProtocolVersion`. */
  setProtocolVersion(version: string): void {
    this.#inner.setProtocolVersion?.(version);
  }

  /** Send one message of this member's client (see the class comment for what is answered here). */
  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    if (isJSONRPCRequest(message)) {
      const uri = (message.params as { uri?: unknown } | undefined)?.uri;
      if (message.method === 'initialize') {
        this.#answer({ jsonrpc: '2.0', id: message.id, result: this.#session.initializeResult() });
        return;
      }
      if (message.method === 'resources/subscribe' && typeof uri === 'string') this.#session.subscribe(uri, this);
      if (message.method === 'resources/unsubscribe' && typeof uri === 'string' && this.#session.unsubscribe(uri, this)) {
        this.#answer({ jsonrpc: '2.0', id: message.id, result: {} });
        return;
      }
      const wireId = this.#wireId(message.id);
      this.#wireIds.set(wireId, message.id);
      try {
        await this.#inner.send({ ...message, id: wireId }, options);
      } catch (error) {
        this.#wireIds.delete(wireId);
        if (isSessionGone(error)) this.#session.sessionGone();
        throw error;
      }
      return;
    }
    if (isJSONRPCNotification(message)) {
      if (message.method === 'notifications/initialized') {
        this.#joined = true;
        return;
      }
      if (message.method === 'notifications/cancelled') {
        const requestId = (message.params as { requestId?: unknown } | undefined)?.requestId;
        if (typeof requestId === 'string' || typeof requestId === 'number') {
          const wireId = this.#wireId(requestId);
          this.#wireIds.delete(wireId);
          message = { ...message, params: { ...message.params, requestId: wireId } };
        }
      }
    }
    await this.#inner.send(message, options);
  }

  /** A notification of the shared session (from the pool's own stream), for this member's client. */
  deliver(message: JSONRPCMessage): void {
    if (this.#closed) return;
    try {
      this.onmessage?.(message);
    } catch (error) {
      // One member's failure is that member's error: the notification still reaches every other member.
      this.onerror?.(error instanceof Error ? error : new Error(String(error)));
    }
  }

  /** Close this member's requests (the session itself stays: it belongs to the pool). */
  async close(): Promise<void> {
    await this.#inner.close().catch(() => undefined);
    await this.#session.leave(this);
  }

  #wireId(id: RequestId): string {
    return `${this.#prefix}${String(id)}`;
  }

  #answer(message: JSONRPCMessage): void {
    queueMicrotask(() => this.onmessage?.(message));
  }

  #receive(message: JSONRPCMessage, extra?: MessageExtraInfo): void {
    if (!('method' in message) && 'id' in message && typeof message.id === 'string') {
      const original = this.#wireIds.get(message.id);
      if (original !== undefined) {
        this.#wireIds.delete(message.id);
        message = { ...message, id: original };
      }
    }
    this.onmessage?.(message, extra);
  }
}
