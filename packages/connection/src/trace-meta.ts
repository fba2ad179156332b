import { BAGGAGE_META_KEY, TRACEPARENT_META_KEY, TRACESTATE_META_KEY, type LoggingLevel } from '@modelcontextprotocol/client';

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
