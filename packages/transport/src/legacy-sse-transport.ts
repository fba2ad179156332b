import { SSEClientTransport } from '@modelcontextprotocol/client';
import type { JSONRPCMessage, SSEClientTransportOptions } from '@modelcontextprotocol/client';
import { maskUrl } from '@toolhost/contract';
import { errorAnswers } from './message-limits.js';
import { deliverMessage } from './deliver-message.js';
import type { HttpObservations } from './create-http-fetch.js';
import { TransportError } from './transport-error.js';

/** Options of {@link LegacySseTransport} besides the SDK's own. */
export interface LegacySseTransportOptions {
  /** Name of the server entry, used in errors. */
  serverName: string;
  /** The observations of the fetch given in the SDK options; used to notice a server that went away. */
  observations: HttpObservations;
  /** How long `start()` waits for the server's `endpoint` event. @default 600000 */
  endpointTimeoutMs?: number;
  /** Stops `start()` at once (its reason becomes the `cause` of the error). */
  signal?: AbortSignal | undefined;
}

/** Default wait for the `endpoint` event (the default MCP entry timeout). */
const DEFAULT_ENDPOINT_TIMEOUT_MS = 600_000;

/**
 * The SDK's legacy HTTP+SSE transport, plus one rule: once connected, a broken or ended event
 * stream, or a request that cannot reach the server, means the server went away. The
 * transport then reports `CONNECTION_CLOSED` through `onerror` and closes, so calls in flight
 * fail at once instead of waiting for their timeout (legacy SSE cannot replay lost answers).
 * `start()` is bounded: a server that opens its event stream but never sends the `endpoint`
 * event fails with `CONNECT_FAILED` after `endpointTimeoutMs`, when `signal` aborts, or when
 * the transport is closed, instead of waiting forever.
 */
export class LegacySseTransport extends SSEClientTransport {
  #connected = false;
  readonly #outstanding = new Set<string | number>();
  #onmessage: ((message: JSONRPCMessage) => void) | undefined;
  #closing = false;
  readonly #url: URL;
  readonly #serverName: string;
  readonly #endpointTimeoutMs: number;
  readonly #signal: AbortSignal | undefined;
  #stopStart: ((detail: string, cause?: unknown) => void) | undefined;

  constructor(url: URL, options: SSEClientTransportOptions, extra: LegacySseTransportOptions) {
    super(url, options);
    this.#url = url;
    this.#serverName = extra.serverName;
    this.#endpointTimeoutMs = extra.endpointTimeoutMs ?? DEFAULT_ENDPOINT_TIMEOUT_MS;
    this.#signal = extra.signal;
    extra.observations.onStreamEnd = (end) => {
      if (end.method === 'GET') this.#lost(end.broken ? 'its event stream broke' : 'it ended its event stream');
    };
    extra.observations.onFetchFailed = () => this.#lost('it cannot be reached');
    extra.observations.onMessageTooLarge = (error) => this.#lostTooLarge(error);
    // The SDK declares `onmessage` as an instance field: wrap it here, so answers received leave
    // the requests in flight.
    const track = (message: JSONRPCMessage): void => {
      if (!('method' in message) && 'id' in message && message.id !== undefined) this.#outstanding.delete(message.id);
      deliverMessage({ onmessage: this.#onmessage, onerror: (error) => this.onerror?.(error) }, message, this.#serverName);
    };
    Object.defineProperty(this, 'onmessage', {
      configurable: true,
      enumerable: true,
      get: () => (this.#onmessage ? track : undefined),
      set: (handler: ((message: JSONRPCMessage) => void) | undefined) => {
        this.#onmessage = handler;
      },
    });
  }

  /** See `Transport.send`; remembers requests in flight, so they can fail with a precise error. */
  override async send(message: JSONRPCMessage): Promise<void> {
    if ('method' in message && 'id' in message) this.#outstanding.add(message.id);
    return super.send(message);
  }

  /** An event over the size limit: every request in flight fails with that error, then the transport closes. */
  #lostTooLarge(error: Error): void {
    if (!this.#connected || this.#closing) return;
    const ids = [...this.#outstanding];
    this.#outstanding.clear();
    for (const answer of errorAnswers(ids, error)) {
      deliverMessage({ onmessage: this.#onmessage, onerror: (failure) => this.onerror?.(failure) }, answer, this.#serverName);
    }
    this.#lost(error.message.replace(/\.\s.*$/, '').replace(/^MCP server '[^']*' /, ''));
  }

  /** See `Transport.start`. */
  override async start(): Promise<void> {
    const began = Date.now();
    const waited = (): string => `${Date.now() - began} ms`;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const onAbort = (): void => this.#stopStart?.('connecting was stopped', this.#signal?.reason);
    const stopped = new Promise<never>((_, reject) => {
      this.#stopStart = (detail, cause) => {
        detail = `${detail} after ${waited()}`;
        reject(
          new TransportError({
            code: 'CONNECT_FAILED',
            message:
              `MCP server '${this.#serverName}' (${maskUrl(this.#url.href)}) opened its legacy SSE stream but never sent the \`endpoint\` event (${detail}). ` +
              'A legacy HTTP+SSE server sends it first; check the URL, or use "type": "http" for a Streamable HTTP server.',
            serverName: this.#serverName,
            url: maskUrl(this.#url.href),
            ...(cause !== undefined ? { cause } : {}),
          }),
        );
      };
    });
    timer = setTimeout(() => this.#stopStart?.('no event'), this.#endpointTimeoutMs);
    if (this.#signal?.aborted) onAbort();
    this.#signal?.addEventListener('abort', onAbort, { once: true });
    try {
      await Promise.race([super.start(), stopped]);
    } catch (error) {
      // Stop the event stream (and its reconnects) of an attempt that failed.
      if (!this.#closing) await this.close().catch(() => undefined);
      throw error;
    } finally {
      clearTimeout(timer);
      timer = undefined;
      this.#stopStart = undefined;
      this.#signal?.removeEventListener('abort', onAbort);
    }
    this.#connected = true;
  }

  /** See `Transport.close`. A `start()` still waiting for the `endpoint` event fails at once. */
  override async close(): Promise<void> {
    this.#closing = true;
    if (this.#signal?.aborted) this.#stopStart?.('connecting was stopped', this.#signal.reason);
    else this.#stopStart?.('the transport was closed while waiting');
    await super.close();
  }

  #lost(detail: string): void {
    if (!this.#connected || this.#closing) return;
    this.#closing = true;
    const serverName = this.#serverName;
    // Deferred so that a request whose send failed gets that error first.
    setTimeout(() => {
      this.onerror?.(
        new TransportError({
          code: 'CONNECTION_CLOSED',
          message: `MCP server '${serverName}' (${maskUrl(this.#url.href)}) went away: ${detail}.`,
          serverName,
          url: maskUrl(this.#url.href),
        }),
      );
      void super.close();
    }, 0);
  }
}
