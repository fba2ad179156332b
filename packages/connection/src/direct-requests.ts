import {
  ProtocolError,
  SdkError,
  SdkErrorCode,
  type JSONRPCMessage,
  type JSONRPCNotification,
  type JSONRPCRequest,
  type JSONRPCResponse,
  type Transport,
} from '@modelcontextprotocol/client';

/**
 * Prefix of the ids of the requests a {@link DirectRequests} sends. The SDK numbers its own
 * requests, so a string id can never be taken for one of them.
 */
const ID_PREFIX = 'toolhost-';

/** One request to send with {@link DirectRequests.request}. */
export interface DirectRequest<T> {
  /** The transport to write to (the client's, connected). */
  readonly transport: Transport;
  /** The request without `jsonrpc` and `id` (those are added), `_meta` envelope already applied. */
  readonly message: Omit<JSONRPCRequest, 'jsonrpc' | 'id'>;
  /** Milliseconds until the request fails with the SDK's `RequestTimeout` error and the server is told to cancel. */
  readonly timeoutMs: number;
  /** Aborting it fails the request as the SDK does (its reason, or `RequestTimeout`) and tells the server to cancel. */
  readonly signal?: AbortSignal | undefined;
  /** The `notifications/cancelled` to send for request `id` (with the client's `_meta` envelope). */
  readonly cancelNotice: (id: string, reason: string) => Omit<JSONRPCNotification, 'jsonrpc'>;
  /** Turns the `result` of the response into the value (throws, or returns a rejected promise, for a bad one). */
  readonly decode: (result: unknown) => T | Promise<T>;
}

interface Pending {
  settle(response: JSONRPCResponse | Error): void;
}

/** The error an aborted request fails with: the SDK's own rule (an `SdkError` reason as it is, else `RequestTimeout`). */
function abortError(reason: unknown): SdkError {
  return reason instanceof SdkError ? reason : new SdkError(SdkErrorCode.RequestTimeout, String(reason));
}

/**
 * Requests a client sends on its transport without the SDK's request machinery, for the one
 * request a host sends most (`tools/call`): one id, one timer, one abort listener and one
 * promise per request, the response taken from the client's response dispatch before the SDK
 * looks for a handler of its own. Errors are the SDK's (`ProtocolError` for an error response,
 * `SdkError` `RequestTimeout` and `ConnectionClosed`), so callers cannot tell the two paths
 * apart. Requests that need more (progress, per-request headers, a response stream per request)
 * go through the SDK.
 */
export class DirectRequests {
  #next = 0;
  readonly #pending = new Map<string, Pending>();

  /**
   * Whether a request with these options can be sent directly on `transport`: no progress
   * callback, no per-request headers or resumption, and a transport without a stream per
   * request (stdio, or HTTP on the 2025 revisions).
   */
  static suits(
    transport: Transport,
    options: {
      readonly onprogress?: unknown;
      readonly headers?: unknown;
      readonly resumptionToken?: unknown;
      readonly relatedRequestId?: unknown;
    },
  ): boolean {
    return (
      options.onprogress === undefined &&
      options.headers === undefined &&
      options.resumptionToken === undefined &&
      options.relatedRequestId === undefined &&
      (transport as { readonly hasPerRequestStream?: boolean }).hasPerRequestStream !== true
    );
  }

  /** Sends `request` and settles with its decoded result, or the SDK's error for what went wrong. */
  request<T>(request: DirectRequest<T>): Promise<T> {
    const { transport, signal } = request;
    if (signal?.aborted) return Promise.reject(abortError(signal.reason));
    const id = `${ID_PREFIX}${this.#next++}`;
    return new Promise<T>((resolve, reject) => {
      const done = (): void => {
        this.#pending.delete(id);
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
      };
      const cancel = (error: SdkError): void => {
        done();
        // Tell the server, as the SDK does for its own requests; a failure to send it changes nothing for the caller.
        transport.send({ jsonrpc: '2.0', ...request.cancelNotice(id, error.message) }).catch(() => undefined);
        reject(error);
      };
      const onAbort = (): void => cancel(abortError(signal?.reason));
      const timer = setTimeout(
        () => cancel(new SdkError(SdkErrorCode.RequestTimeout, 'Request timed out', { timeout: request.timeoutMs })),
        request.timeoutMs,
      );
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#pending.set(id, {
        settle: (response) => {
          done();
          if (response instanceof Error) reject(response);
          else if ('error' in response) reject(ProtocolError.fromError(response.error.code, response.error.message, response.error.data));
          else {
            try {
              resolve(request.decode(response.result));
            } catch (error) {
              reject(error instanceof Error ? error : new Error(String(error)));
            }
          }
        },
      });
      transport.send({ jsonrpc: '2.0', id, ...request.message } as JSONRPCRequest).catch((error: unknown) => {
        if (!this.#pending.has(id)) return;
        done();
        reject(error);
      });
    });
  }

  /**
   * Whether `message` is a well-formed response to a direct request (a string id with the direct
   * prefix; an object `result`, or an `error` with a numeric `code` and a string `message`), which
   * {@link DirectRequests.settle} may take before the SDK classifies the message. Anything else,
   * malformed answers included, is left to the SDK's own checks.
   */
  static isAnswer(message: JSONRPCMessage): message is JSONRPCResponse {
    const { id, result, error } = message as { id?: unknown; result?: unknown; error?: { code?: unknown; message?: unknown } };
    if (typeof id !== 'string' || !id.startsWith(ID_PREFIX) || 'method' in message) return false;
    if (typeof result === 'object' && result !== null && !Array.isArray(result)) return error === undefined;
    return (
      result === undefined &&
      typeof error === 'object' &&
      error !== null &&
      typeof error.code === 'number' &&
      typeof error.message === 'string'
    );
  }

  /**
   * Takes a response meant for a direct request: settles it and returns true. A response with
   * one of these ids that is no longer awaited (cancelled, timed out) is dropped here too. Any
   * other response returns false, for the SDK.
   */
  settle(response: JSONRPCResponse): boolean {
    const { id } = response;
    if (typeof id !== 'string' || !id.startsWith(ID_PREFIX)) return false;
    this.#pending.get(id)?.settle(response);
    return true;
  }

  /** Fails every request still awaited with `error` (the connection closed). */
  failAll(error: Error): void {
    const pending = [...this.#pending.values()];
    this.#pending.clear();
    for (const entry of pending) entry.settle(error);
  }
}
