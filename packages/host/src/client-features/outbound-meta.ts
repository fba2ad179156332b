import {
  BAGGAGE_META_KEY,
  Client,
  type CallToolRequest,
  type CallToolRequestOptions,
  type CallToolResult,
  LOG_LEVEL_META_KEY,
  TRACEPARENT_META_KEY,
  TRACESTATE_META_KEY,
  type ClientContext,
  type ClientOptions,
  type Implementation,
  type JSONRPCRequest,
  type LoggingLevel,
  type Result,
} from '@modelcontextprotocol/client';
import type { ServerRequestLimiter } from './server-request-limiter.js';
import { mayMirrorHeaders, toolCallResultSchema } from './tool-call-answer.js';

/**
 * The rate limiter of each client. Not a private field: the SDK's constructor registers
 * handlers (through `_wrapHandler`) before a subclass's fields exist.
 */
const LIMITERS = new WeakMap<object, ServerRequestLimiter>();

/**
 * W3C Trace Context (and Baggage) of the operation a request belongs to, as header values
 * (`traceparent: 00-<trace-id>-<parent-id>-<flags>`). The host sends them in the request's `_meta`
 * (`traceparent`, `tracestate`, `baggage`), so a server can join the caller's trace.
 */
export interface TraceContext {
  /** The `traceparent` value (W3C Trace Context level 1, version 00). */
  readonly traceparent: string;
  /** The `tracestate` value, when there is one. */
  readonly tracestate?: string;
  /** The `baggage` value (W3C Baggage), when there is one. */
  readonly baggage?: string;
}

/** Where the per-request `_meta` additions come from; read at the moment each message is sent. */
export interface OutboundMetaSources {
  /** The log level set for this server (MCP 2026-07-28 carries it on every request). */
  readonly logLevel?: () => LoggingLevel | undefined;
  /** The host's trace-context hook. */
  readonly traceContext?: () => TraceContext | undefined;
}

/** `version-traceid-parentid-flags`, lower-case hex; the all-zero ids are invalid. */
const TRACEPARENT = /^[\da-f]{2}-(?!0{32})[\da-f]{32}-(?!0{16})[\da-f]{16}-[\da-f]{2}$/;
/** Header-safe text of a sane length (tracestate allows 32 members of at most 256 characters). */
const HEADER_VALUE = /^[\x20-\x7e]{1,8192}$/;

/**
 * The `_meta` keys of a trace context, or `undefined` when there is none or it is malformed (a
 * hook that throws or returns a malformed `traceparent` must not break the request; the trace is
 * then simply not propagated).
 */
export function traceMeta(hook: (() => TraceContext | undefined) | undefined): Record<string, string> | undefined {
  if (!hook) return undefined;
  let context: TraceContext | undefined;
  try {
    context = hook();
  } catch {
    return undefined;
  }
  if (
    !context ||
    typeof context.traceparent !== 'string' ||
    !TRACEPARENT.test(context.traceparent) ||
    context.traceparent.startsWith('ff')
  ) {
    return undefined;
  }
  const meta: Record<string, string> = { [TRACEPARENT_META_KEY]: context.traceparent };
  if (typeof context.tracestate === 'string' && HEADER_VALUE.test(context.tracestate)) meta[TRACESTATE_META_KEY] = context.tracestate;
  if (typeof context.baggage === 'string' && HEADER_VALUE.test(context.baggage)) meta[BAGGAGE_META_KEY] = context.baggage;
  return meta;
}

/**
 * The SDK client the host connects with: on top of the SDK's own per-request envelope (MCP
 * 2026-07-28), it adds the server's log level on that revision, and the trace context on every
 * revision, to each message it sends. Keys the caller put in `_meta` itself still win.
 */
export class HostClient extends Client {
  readonly #sources: OutboundMetaSources;

  /** A client whose outbound `_meta` also carries what `sources` gives at send time. */
  constructor(clientInfo: Implementation, options: ClientOptions, sources: OutboundMetaSources, limiter?: ServerRequestLimiter) {
    super(clientInfo, options);
    this.#sources = sources;
    if (limiter) LIMITERS.set(this, limiter);
  }

  /** The SDK's wrapping, plus the rate limit of server-to-client requests (elicitation, sampling, roots). */
  protected override _wrapHandler(
    method: string,
    handler: (request: JSONRPCRequest, ctx: ClientContext) => Promise<Result>,
  ): (request: JSONRPCRequest, ctx: ClientContext) => Promise<Result> {
    const wrapped = super._wrapHandler(method, handler);
    return (request, ctx) => {
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
   * is `callTool` itself. The output schema is not checked here: the host checks structured
   * content itself, leniently.
   */
  sendToolCall(params: CallToolRequest['params'], options: CallToolRequestOptions = {}): Promise<CallToolResult> {
    if (this.getProtocolEra() === 'modern' && mayMirrorHeaders(options.toolDefinition)) {
      return this.callTool(params, options) as Promise<CallToolResult>;
    }
    return this.request({ method: 'tools/call', params }, this.#toolCallResult, options);
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
