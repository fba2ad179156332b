// A small A2A JSON-RPC client for the browser: the agent card, plain calls and `message/stream`
// read as Server-Sent Events from a fetch body. No SDK: the page needs these few requests, plus the
// extension's own methods (`commands/get`, `command/execute`) that generic clients do not offer.
import { readSse } from './protocol.js';

/** The agent card path of A2A. */
export const AGENT_CARD_PATH = '/.well-known/agent-card.json';

/** The header a v0.3 client names the extensions it activates with. */
export const EXTENSIONS_HEADER = 'X-A2A-Extensions';

/** A JSON-RPC error answered by the agent. */
export class RpcError extends Error {
  /** JSON-RPC error code. */
  readonly code: number;
  /** Error data, if any. */
  readonly data: unknown;

  /** Wraps a JSON-RPC error object. */
  constructor(method: string, error: { code?: unknown; message?: unknown; data?: unknown }) {
    super(`${method}: ${typeof error.message === 'string' ? error.message : 'error'} (JSON-RPC ${String(error.code)})`);
    this.name = 'RpcError';
    this.code = typeof error.code === 'number' ? error.code : 0;
    this.data = error.data;
  }
}

/** An HTTP answer that is not a JSON-RPC answer (401, 404, 500, …). */
export class HttpError extends Error {
  /** HTTP status. */
  readonly status: number;

  /** Describes the failed request. */
  constructor(what: string, status: number, statusText: string) {
    super(
      status === 401
        ? `${what}: the agent needs a bearer token (HTTP 401). Enter it under Connection and try again.`
        : `${what}: HTTP ${status} ${statusText}`,
    );
    this.name = 'HttpError';
    this.status = status;
  }
}

/** Options of {@link A2aClient}. */
export interface A2aClientOptions {
  /** The JSON-RPC endpoint (the agent card's `url`). */
  endpoint: string;
  /** The bearer token, read on every request so the user can change it. */
  token?: () => string;
  /** The extension URI to activate (sent in {@link EXTENSIONS_HEADER}). */
  extensionUri?: string;
}

/** Reads the agent card from the origin's well-known path. */
export async function fetchAgentCard(origin: string, token = ''): Promise<unknown> {
  const response = await fetch(new URL(AGENT_CARD_PATH, origin), {
    headers: { Accept: 'application/json', ...(token !== '' ? { Authorization: `Bearer ${token}` } : {}) },
  });
  if (!response.ok) throw new HttpError('agent card', response.status, response.statusText);
  return response.json();
}

let nextId = 1;

/** JSON-RPC over HTTP to one A2A agent. */
export class A2aClient {
  readonly #options: A2aClientOptions;

  /** A client for the endpoint in `options`. */
  constructor(options: A2aClientOptions) {
    this.#options = options;
  }

  #headers(accept: string): Record<string, string> {
    const token = this.#options.token?.() ?? '';
    return {
      'Content-Type': 'application/json',
      Accept: accept,
      ...(token !== '' ? { Authorization: `Bearer ${token}` } : {}),
      ...(this.#options.extensionUri !== undefined ? { [EXTENSIONS_HEADER]: this.#options.extensionUri } : {}),
    };
  }

  async #post(method: string, params: unknown, accept: string, signal?: AbortSignal): Promise<Response> {
    const response = await fetch(this.#options.endpoint, {
      method: 'POST',
      headers: this.#headers(accept),
      body: JSON.stringify({ jsonrpc: '2.0', id: nextId++, method, params }),
      ...(signal !== undefined ? { signal } : {}),
    });
    if (!response.ok) throw new HttpError(method, response.status, response.statusText);
    return response;
  }

  /** One JSON-RPC call; resolves to its `result`, throws {@link RpcError} or {@link HttpError}. */
  async call(method: string, params: unknown): Promise<unknown> {
    const response = await this.#post(method, params, 'application/json', undefined);
    return resultOf(method, await response.json());
  }

  /**
   * A streaming JSON-RPC call (`message/stream`, `tasks/resubscribe`): yields the `result` of every
   * event until the agent closes the stream. A JSON answer instead of a stream (an error before the
   * stream started) is yielded or thrown the same way.
   */
  async *stream(method: string, params: unknown, signal?: AbortSignal): AsyncGenerator<unknown> {
    const response = await this.#post(method, params, 'text/event-stream', signal);
    const type = response.headers.get('content-type') ?? '';
    if (!type.includes('text/event-stream') || response.body === null) {
      yield resultOf(method, await response.json());
      return;
    }
    for await (const event of readSse(response.body)) {
      let message: unknown;
      try {
        message = JSON.parse(event.data);
      } catch {
        throw new Error(`${method}: the agent sent an event that is not JSON`);
      }
      yield resultOf(method, message);
    }
  }
}

function resultOf(method: string, message: unknown): unknown {
  if (typeof message !== 'object' || message === null) throw new Error(`${method}: the agent's answer is not a JSON-RPC response`);
  const record = message as Record<string, unknown>;
  if (typeof record['error'] === 'object' && record['error'] !== null)
    throw new RpcError(method, record['error'] as Record<string, unknown>);
  if (!('result' in record)) throw new Error(`${method}: the agent's answer has neither result nor error`);
  return record['result'];
}
