import { SSEClientTransport } from '@modelcontextprotocol/client';
import type { SSEClientTransportOptions } from '@modelcontextprotocol/client';
import type { HttpObservations } from './create-http-fetch.js';
import { TransportError } from './transport-error.js';

/** Options of {@link LegacySseTransport} besides the SDK's own. */
export interface LegacySseTransportOptions {
  /** Name of the server entry, used in errors. */
  serverName: string;
  /** The observations of the fetch given in the SDK options; used to notice a server that went away. */
  observations: HttpObservations;
}

/**
 * The SDK's legacy HTTP+SSE transport, plus one rule: once connected, a broken or ended event
 * stream, or a request that cannot reach the server, means the server went away. The
 * transport then reports `CONNECTION_CLOSED` through `onerror` and closes, so calls in flight
 * fail at once instead of waiting for their timeout (legacy SSE cannot replay lost answers).
 */
export class LegacySseTransport extends SSEClientTransport {
  #connected = false;
  #closing = false;
  readonly #url: URL;
  readonly #serverName: string;

  constructor(url: URL, options: SSEClientTransportOptions, extra: LegacySseTransportOptions) {
    super(url, options);
    this.#url = url;
    this.#serverName = extra.serverName;
    extra.observations.onStreamEnd = (end) => {
      if (end.method === 'GET') this.#lost(end.broken ? 'its event stream broke' : 'it ended its event stream');
    };
    extra.observations.onFetchFailed = () => this.#lost('it cannot be reached');
  }

  /** See `Transport.start`. */
  override async start(): Promise<void> {
    await super.start();
    this.#connected = true;
  }

  /** See `Transport.close`. */
  override async close(): Promise<void> {
    this.#closing = true;
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
          message: `MCP server '${serverName}' (${this.#url.href}) went away: ${detail}.`,
          serverName,
          url: this.#url.href,
        }),
      );
      void super.close();
    }, 0);
  }
}
