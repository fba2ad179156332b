import { randomUUID } from 'node:crypto';
import {
  Client,
  DEFAULT_REQUEST_TIMEOUT_MSEC,
  ProtocolErrorCode,
  SdkError,
  SdkErrorCode,
  type CallToolRequest,
  type CallToolRequestOptions,
  type CallToolResult,
  LOG_LEVEL_META_KEY,
  type ClientContext,
  type ClientOptions,
  type Implementation,
  type JSONRPCNotification,
  type JSONRPCRequest,
  type JSONRPCResponse,
  type MessageExtraInfo,
  ProtocolError,
  type Result,
  type StandardSchemaV1,
  type Transport,
} from '@modelcontextprotocol/client';
import { jsonBoundsBreach } from '@toolhost/contract';
import { DirectRequests } from './direct-requests.js';
import type { ServerRequestLimiter } from './server-request-limiter.js';
import { mayMirrorHeaders, toolCallResultSchema } from './tool-call-answer.js';
import { TASK_HANDLE_META_KEY, taskHandleOf, type TaskHandle } from './task-handles.js';
import { traceMeta, type OutboundMetaSources } from './trace-meta.js';

/**
 * The rate limiter of each client. Not a private field: the SDK's constructor registers
 * handlers (through `_wrapHandler`) before a subclass's fields exist.
 */
const LIMITERS = new WeakMap<object, ServerRequestLimiter>();

/** Most `tools/call` requests (and unclaimed task handles) a client keeps track of; the oldest go first. */
const MAX_TRACKED = 1024;

/**
 * Default of a client's `maxMessageDepth` setting (the host's `limits.maxMessageDepth`):
 * levels of JSON nesting of a message from a server. Real answers nest a few dozen levels; JSON a
 * server sends is parsed to any depth, but `JSON.stringify` runs out of stack at about 4,000
 * levels and `structuredClone` at about 2,000, and so does any recursive walk (a schema
 * validator, a result mapper, an application's logger).
 */
export const DEFAULT_MAX_MESSAGE_DEPTH = 512;

/** A result schema that accepts anything (the caller checks). */
const ANY_RESULT = { '~standard': { version: 1 as const, vendor: 'toolhost', validate: (value: unknown) => ({ value }) } };

/** Whether `key` of `target` (or the first object of its prototype chain having it) is a plain data property, not an accessor. */
function isDataProperty(target: object, key: string): boolean {
  for (let object: object | null = target; object !== null; object = Object.getPrototypeOf(object) as object | null) {
    const descriptor = Object.getOwnPropertyDescriptor(object, key);
    if (descriptor) return 'value' in descriptor && descriptor.writable === true;
  }
  return false;
}

/** What a {@link ConnectionClient} adds to the SDK's `Client`. Every field is optional. */
export interface ConnectionClientSettings {
  /** What each outgoing message adds to its `_meta`, read at send time: the log level (2026-07-28) and the trace context. */
  readonly outboundMeta?: OutboundMetaSources;
  /** The rate limit of the server's requests to the client (elicitation, sampling, roots list). @default none */
  readonly limiter?: ServerRequestLimiter;
  /**
   * Hand an answer to `tools/call` that is a task handle to the caller ({@link ConnectionClient.takeTaskHandle})
   * instead of failing the SDK's result check. @default false
   */
  readonly tasks?: boolean;
  /** Most levels of JSON nesting of a message from the server. @default 512 ({@link DEFAULT_MAX_MESSAGE_DEPTH}) */
  readonly maxMessageDepth?: number;
}

/**
 * The MCP SDK client of one server connection, as toolhost connects it: on top of the SDK's own
 * per-request envelope (MCP 2026-07-28), it adds the server's log level on that revision, and the
 * trace context on every revision, to each message it sends (keys the caller put in `_meta` itself
 * still win); it sends `tools/call` on a cheaper direct path ({@link ConnectionClient.sendToolCall});
 * it refuses messages nested too deep; it rate-limits the server's requests; and it hands task
 * answers to the caller. Make one with `createClientFeatures(...).createClient(clientInfo)`, which
 * also installs the handlers of the client features.
 */
export class ConnectionClient extends Client {
  /**
   * What this client declares in its handshake (name and version, capabilities, revision
   * negotiation): a connection pool shares a connection only between clients that declare the same.
   */
  readonly handshake: {
    readonly clientInfo: Implementation;
    readonly capabilities: ClientOptions['capabilities'];
    readonly versionNegotiation: ClientOptions['versionNegotiation'];
    readonly supportedProtocolVersions: ClientOptions['supportedProtocolVersions'];
  };
  readonly #sources: OutboundMetaSources;
  readonly #tasks: boolean;
  /** Ids of the `tools/call` requests in flight (only with tasks on). */
  readonly #toolCallIds = new Set<string | number>();
  /** Task handles the server answered `tools/call` with, by the token put in the result in their place. */
  readonly #taskHandles = new Map<string, TaskHandle>();
  /** `tools/call` requests sent without the SDK's request machinery (see {@link ConnectionClient.sendToolCall}). */
  readonly #direct = new DirectRequests();
  /** Most levels of JSON nesting of a message from the server (see {@link DEFAULT_MAX_MESSAGE_DEPTH}). */
  readonly #maxDepth: number;

  /**
   * A client whose outbound `_meta` also carries what `settings.outboundMeta` gives at send time.
   * With `settings.tasks`, an answer to `tools/call` that is a task handle (2025-11-25
   * `CreateTaskResult`, 2026-07-28 `resultType: "task"`) is handed to the caller (see
   * {@link ConnectionClient.takeTaskHandle}) instead of failing the SDK's result check. A message
   * from the server nested more than `settings.maxMessageDepth` levels deep is refused before
   * anyone walks it: an answer fails its request, a request to a handler is answered with an
   * error, a notification is dropped (and reported to `onerror`).
   */
  constructor(clientInfo: Implementation, options: ClientOptions, settings: ConnectionClientSettings = {}) {
    super(clientInfo, options);
    const { limiter } = settings;
    this.#maxDepth = settings.maxMessageDepth ?? DEFAULT_MAX_MESSAGE_DEPTH;
    this.handshake = {
      clientInfo,
      capabilities: options.capabilities,
      versionNegotiation: options.versionNegotiation,
      supportedProtocolVersions: options.supportedProtocolVersions,
    };
    this.#sources = settings.outboundMeta ?? {};
    this.#tasks = settings.tasks === true;
    if (limiter) LIMITERS.set(this, limiter);
  }

  /**
   * The SDK's connect; with tasks on, the client first notes the id of every `tools/call` it sends.
   * Once connected, answers to direct requests are taken before the SDK's message handler, which
   * would first check the message against each JSON-RPC message schema in turn.
   */
  override async connect(transport: Transport, options?: Parameters<Client['connect']>[1]): Promise<void> {
    if (this.#tasks) {
      const send = transport.send.bind(transport);
      transport.send = (message, sendOptions) => {
        if ('method' in message && message.method === 'tools/call' && 'id' in message) remember(this.#toolCallIds, message.id);
        return send(message, sendOptions);
      };
    }
    // A handler set before connect is called by the SDK's for every message: then all go through the SDK's.
    const earlier = transport.onmessage;
    await super.connect(transport, options);
    if (earlier === undefined && this.transport === transport) this.#takeDirectAnswersFirst(transport);
  }

  /**
   * Puts a check for direct answers in front of the SDK's message handler on `transport`. A
   * message the check leaves (not a direct answer, or a malformed one) goes to the SDK's handler,
   * whose response dispatch ({@link ConnectionClient._onresponse}) still settles direct answers, so
   * nothing depends on this staying in front (another handler may replace it later).
   */
  #takeDirectAnswersFirst(transport: Transport): void {
    const sdkHandler = transport.onmessage;
    // Only over a plain field: a transport that wraps its handler behind a getter and setter (the
    // legacy SSE transport, discovery's list-answer filter) would hand back its own wrapper here and
    // then call the new handler from it, in a loop.
    if (!sdkHandler || !isDataProperty(transport, 'onmessage')) return;
    transport.onmessage = (message, extra) => {
      if (DirectRequests.isAnswer(message) && this.#direct.settle(this.#withTaskToken(this.#withinDepth(message)))) return;
      sdkHandler(message, extra);
    };
  }

  /** Whether `value` nests more than the client's depth limit. */
  #tooDeep(value: unknown): boolean {
    return value !== undefined && jsonBoundsBreach(value, { maxDepth: this.#maxDepth, maxLength: Number.POSITIVE_INFINITY }) === 'depth';
  }

  /** What a message nested too deep is told, for its error. */
  #tooDeepMessage(what: string): string {
    return `the server's ${what} is nested more than ${this.#maxDepth} levels deep (over limits.maxMessageDepth), so it was refused`;
  }

  /** The response, or for a result nested deeper than the limit, an error answer in its place. */
  #withinDepth(response: JSONRPCResponse): JSONRPCResponse {
    if (!('result' in response) || !this.#tooDeep(response.result)) return response;
    return { jsonrpc: '2.0', id: response.id, error: { code: ProtocolErrorCode.InternalError, message: this.#tooDeepMessage('answer') } };
  }

  /** The SDK's notification dispatch, after the depth limit: a notification nested too deep is dropped and reported. */
  protected override _onnotification(notification: JSONRPCNotification, extra?: MessageExtraInfo): void {
    if (this.#tooDeep(notification.params)) {
      this.onerror?.(new Error(`Dropped ${notification.method} notification: ${this.#tooDeepMessage('notification')}`));
      return;
    }
    super._onnotification(notification, extra);
  }

  /**
   * The SDK's response dispatch. An answer to a `tools/call` that is a task handle is replaced by
   * an empty result whose `_meta` carries a random token, and the handle is kept under that token
   * for {@link ConnectionClient.takeTaskHandle} (a server cannot forge one: it does not know the token).
   */
  protected override _onresponse(response: JSONRPCResponse): void {
    const answer = this.#withTaskToken(this.#withinDepth(response));
    if (!this.#direct.settle(answer)) super._onresponse(answer);
  }

  /** The response, or for a task handle answering a `tools/call` (tasks on), an empty result carrying the handle's token. */
  #withTaskToken(response: JSONRPCResponse): JSONRPCResponse {
    if (response.id === undefined || !this.#toolCallIds.delete(response.id) || !('result' in response)) return response;
    const handle = taskHandleOf(response.result);
    if (!handle) return response;
    const token = randomUUID();
    remember(this.#taskHandles, token, handle);
    const result = {
      ...(handle.revision === 'modern' ? { resultType: 'complete' } : {}),
      content: [],
      _meta: { [TASK_HANDLE_META_KEY]: token },
    };
    return { ...response, result };
  }

  /** The SDK's teardown, after failing the direct requests still awaited, as the SDK fails its own. */
  protected override _onclose(): void {
    this.#direct.failAll(new SdkError(SdkErrorCode.ConnectionClosed, 'Connection closed'));
    super._onclose();
  }

  /** The task handle a `tools/call` result stands for (once), or undefined for an ordinary result. */
  takeTaskHandle(result: { readonly _meta?: Readonly<Record<string, unknown>> | undefined }): TaskHandle | undefined {
    const token = result._meta?.[TASK_HANDLE_META_KEY];
    if (typeof token !== 'string') return undefined;
    const handle = this.#taskHandles.get(token);
    this.#taskHandles.delete(token);
    return handle;
  }

  /**
   * Answer a task's input requests (2026-07-28 `input_required`: elicitation, sampling, roots)
   * through this client's registered handlers (the caller's UI hooks and model), exactly as the SDK
   * answers an `input_required` result; returns the responses by key, for `tasks/update`.
   */
  async fulfilInputRequests(inputRequests: Readonly<Record<string, unknown>>, signal: AbortSignal): Promise<Record<string, unknown>> {
    let responses: Record<string, unknown> = {};
    await this._resolveNonCompleteResult(
      { kind: 'input_required', inputRequests: { ...inputRequests } },
      {
        codec: this._wireCodec(),
        request: { method: 'tasks/update', params: {} },
        resultSchema: ANY_RESULT,
        options: { signal },
        flowStartedAt: Date.now(),
        retry: (params) => {
          const answered = params?.['inputResponses'];
          responses = typeof answered === 'object' && answered !== null ? { ...(answered as Record<string, unknown>) } : {};
          return Promise.resolve({});
        },
      },
    );
    return responses;
  }

  /** The SDK's wrapping, plus the rate limit of server-to-client requests (elicitation, sampling, roots). */
  protected override _wrapHandler(
    method: string,
    handler: (request: JSONRPCRequest, ctx: ClientContext) => Promise<Result>,
  ): (request: JSONRPCRequest, ctx: ClientContext) => Promise<Result> {
    const wrapped = super._wrapHandler(method, handler);
    return (request, ctx) => {
      if (this.#tooDeep(request.params)) {
        return Promise.reject(new ProtocolError(ProtocolErrorCode.InvalidParams, this.#tooDeepMessage('request')));
      }
      const limiter = LIMITERS.get(this);
      return limiter ? limiter.wrap(method, wrapped)(request, ctx) : wrapped(request, ctx);
    };
  }

  /** `tools/call` answers: plain text accepted as is, anything else through the negotiated revision's full check. */
  readonly #toolCallResult = toolCallResultSchema((value) => {
    const outcome = this._wireCodec().validateResult('tools/call', value);
    return outcome.ok ? outcome : { ok: false, ...(outcome.reason === 'invalid' ? { message: outcome.message } : {}) };
  });

  /**
   * `tools/call`, as `callTool` sends it, with a cheaper check of a plain-text answer (see
   * `toolCallResultSchema`). Where the SDK would mirror `x-mcp-header` parameters into
   * `Mcp-Param-*` headers (MCP 2026-07-28, a tool that declares them, or no definition given) it
   * is `callTool` itself. The output schema is not checked here: the caller checks structured
   * content itself (toolhost's host does, leniently). Without progress, per-request headers or a
   * response stream per request, the request is sent directly on the transport (`DirectRequests`:
   * the same envelope, timeout, cancellation, result decoding and errors as the SDK's, at a lower
   * cost per call); otherwise through the SDK's `request`. This is the one way toolhost's host
   * sends a tool call.
   */
  sendToolCall(params: CallToolRequest['params'], options: CallToolRequestOptions = {}): Promise<CallToolResult> {
    if (this.getProtocolEra() === 'modern' && mayMirrorHeaders(options.toolDefinition)) {
      return this.callTool(params, options) as Promise<CallToolResult>;
    }
    const transport = this.transport;
    if (!transport || !DirectRequests.suits(transport, options)) {
      return this.request({ method: 'tools/call', params }, this.#toolCallResult, options);
    }
    const codec = this._wireCodec();
    const flowStartedAt = Date.now();
    return this.#direct.request({
      transport,
      message: this.#withEnvelope({ method: 'tools/call', params }),
      timeoutMs: options.timeout ?? DEFAULT_REQUEST_TIMEOUT_MSEC,
      signal: options.signal,
      cancelNotice: (requestId, reason) => this.#withEnvelope({ method: 'notifications/cancelled', params: { requestId, reason } }),
      decode: (raw): CallToolResult | Promise<CallToolResult> => {
        // The SDK's own decoding of the negotiated revision (2026-07-28: `resultType`, `input_required`).
        const decoded = codec.decodeResult('tools/call', raw);
        if (decoded.kind === 'invalid') throw decoded.error;
        if (decoded.kind === 'input_required') {
          // The server needs input first: the SDK's multi-round-trip engine answers it and sends the call again.
          return this._resolveNonCompleteResult(decoded, {
            codec,
            request: { method: 'tools/call', params },
            resultSchema: this.#toolCallResult,
            options,
            flowStartedAt,
            retry: (next, legOptions) =>
              this.request(
                next === undefined ? { method: 'tools/call' } : { method: 'tools/call', params: next },
                this.#toolCallResult,
                legOptions,
              ),
          }) as Promise<CallToolResult>;
        }
        const checked = this.#toolCallResult['~standard'].validate(decoded.result) as StandardSchemaV1.Result<CallToolResult>;
        if (checked.issues) {
          throw new SdkError(
            SdkErrorCode.InvalidResult,
            `Invalid result for tools/call: ${checked.issues.map((issue) => issue.message).join('; ')}`,
          );
        }
        return checked.value;
      },
    });
  }

  /** A message with this client's outbound `_meta` envelope, as the SDK sends its own (keys the message has win). */
  #withEnvelope<M extends { method: string; params?: Record<string, unknown> }>(message: M): M {
    const envelope = this._outboundMetaEnvelope();
    if (envelope === undefined) return message;
    const params = message.params ?? {};
    return { ...message, params: { ...params, _meta: { ...envelope, ...(params['_meta'] as Record<string, unknown> | undefined) } } };
  }

  /** The SDK's envelope (2026-07-28 only), the log level (2026-07-28 only) and the trace context (any revision). */
  protected override _outboundMetaEnvelope(): Readonly<Record<string, unknown>> | undefined {
    const envelope = super._outboundMetaEnvelope();
    const trace = traceMeta(this.#sources.traceContext);
    const level = envelope !== undefined ? this.#sources.logLevel?.() : undefined;
    if (envelope === undefined && trace === undefined) return undefined;
    return { ...envelope, ...trace, ...(level !== undefined ? { [LOG_LEVEL_META_KEY]: level } : {}) };
  }
}

/** Add to a bounded set or map, dropping the oldest entry when it is full. */
function remember<K, V>(collection: Set<K> | Map<K, V>, key: K, value?: V): void {
  if (collection.size >= MAX_TRACKED) {
    const oldest = collection.keys().next().value as K;
    collection.delete(oldest);
  }
  if (collection instanceof Map) collection.set(key, value as V);
  else collection.add(key);
}
