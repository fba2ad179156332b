import type { CallToolResult } from '@toolhost/connection';
import { escapeControlText } from '@toolhost/contract';
import { PER_CALL_AUTHORIZATION_HEADER } from '@toolhost/transport';
import { HostError } from '../host-error.js';
import type { CallableTool } from './callable-tool.js';

/**
 * What one tool call carries besides its arguments: `_meta` entries and HTTP headers for this
 * request only (for example a per-user token).
 */
export interface ToolCallExtras {
  /**
   * Entries merged into the `_meta` of this `tools/call` request. Toolhost's own keys win: a per-call
   * `meta` may not set `progressToken`, `traceparent`, `tracestate`, `baggage` or any key whose
   * prefix is reserved by MCP (a label `modelcontextprotocol` or `mcp`, such as
   * `io.modelcontextprotocol/logLevel`); such a call fails with `INVALID_CALL_OPTIONS` and is not sent.
   */
  readonly meta?: Readonly<Record<string, unknown>>;
  /**
   * HTTP headers sent with this `tools/call` request only; Streamable HTTP servers only (a stdio or
   * legacy SSE server fails the call with `INVALID_CALL_OPTIONS`). Names must be HTTP tokens and
   * values visible ASCII, space or tab (no CR/LF); the headers the transport owns (`Content-Type`,
   * `Accept`, `Mcp-*`, `DPoP`, `Host`, ...) are refused. `Authorization` replaces the entry's own
   * (configured or OAuth) token for this request, and only with `allowAuthorizationHeader: true`.
   */
  readonly headers?: Readonly<Record<string, string>>;
  /** Let `headers` carry `Authorization` (it then replaces the entry's token for this call). @default false */
  readonly allowAuthorizationHeader?: boolean;
}

/** A tool call as a tool-call interceptor sees it. */
export interface InterceptedToolCall extends ToolCallExtras {
  /** The tool's registered name (what the model used). */
  readonly toolName: string;
  /** The tool's server. */
  readonly serverName: string;
  /** The tool's name on its server. */
  readonly originalName: string;
  /** The tool call id. */
  readonly toolCallId: string;
  /** The arguments the server will get (after the earlier interceptors). */
  readonly arguments: Readonly<Record<string, unknown>>;
}

/** What a `before` interceptor may change; fields left out stay as they were. */
export type ToolCallChanges = Partial<Pick<InterceptedToolCall, 'arguments' | 'meta' | 'headers' | 'allowAuthorizationHeader'>>;

/**
 * A hook around every tool call (host option `interceptors`). Interceptors run in the order given.
 * `before` runs once the tool is found and before the arguments are validated and the user is
 * asked, so validation and the confirmation see the arguments the server will get; it may return
 * changes (`arguments`, `meta`, `headers`) or throw to refuse the call. `after` runs when the server
 * answered (an `isError` result included), before the result is mapped for the model, and may
 * return a replacement result. An interceptor that throws fails the call with `INTERCEPTOR_FAILED`
 * naming it; the server is then not called (`before`) or its result is not used (`after`).
 */
export interface ToolCallInterceptor {
  /** Name used in errors. @default `interceptor #<index>` */
  readonly name?: string;
  /** Before the call: return changes, nothing, or throw to refuse. */
  before?(call: InterceptedToolCall): ToolCallChanges | void | Promise<ToolCallChanges | void>;
  /** After the server answered: return a replacement result, or nothing to keep it. */
  after?(call: InterceptedToolCall, result: CallToolResult): CallToolResult | void | Promise<CallToolResult | void>;
}

const RESERVED_META_KEYS = new Set(['progressToken', 'traceparent', 'tracestate', 'baggage']);
const RESERVED_HEADERS = new Set([
  'accept',
  'connection',
  'content-length',
  'content-type',
  'dpop',
  'host',
  'last-event-id',
  'transfer-encoding',
  PER_CALL_AUTHORIZATION_HEADER,
]);
const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const HEADER_VALUE = /^[\t\x20-\x7e]{0,8192}$/;

function interceptorName(interceptor: ToolCallInterceptor, index: number): string {
  return typeof interceptor.name === 'string' && interceptor.name !== ''
    ? `"${escapeControlText(interceptor.name, { maxLength: 100 })}"`
    : `#${index + 1}`;
}

function interceptorFailed(tool: CallableTool, name: string, stage: 'before' | 'after', error: unknown): HostError {
  const { name: toolName, serverName } = tool.definition;
  const reason = error instanceof Error ? error.message : String(error);
  const what = stage === 'before' ? 'refused the call; the tool was not called' : 'failed after the call; its result was not used';
  return new HostError({
    code: 'INTERCEPTOR_FAILED',
    serverName,
    toolName,
    cause: error,
    message: `Tool-call interceptor ${name} (${stage}) ${what}: tool "${toolName}" of MCP server "${serverName}": ${escapeControlText(reason, { maxLength: 500 })}`,
  });
}

/** Runs the `before` interceptors in order; the call as the server will get it, or the error. */
export async function runBeforeInterceptors(
  interceptors: readonly ToolCallInterceptor[],
  tool: CallableTool,
  call: InterceptedToolCall,
): Promise<InterceptedToolCall | HostError> {
  let current = call;
  for (const [index, interceptor] of interceptors.entries()) {
    if (!interceptor.before) continue;
    try {
      const changes = await interceptor.before(current);
      if (changes) current = { ...current, ...definedOf(changes) };
    } catch (error) {
      return interceptorFailed(tool, interceptorName(interceptor, index), 'before', error);
    }
  }
  return current;
}

/** Runs the `after` interceptors in order; the result to map, or the error. */
export async function runAfterInterceptors(
  interceptors: readonly ToolCallInterceptor[],
  tool: CallableTool,
  call: InterceptedToolCall,
  result: CallToolResult,
): Promise<CallToolResult | HostError> {
  let current = result;
  for (const [index, interceptor] of interceptors.entries()) {
    if (!interceptor.after) continue;
    try {
      const replacement = await interceptor.after(call, current);
      if (replacement) current = replacement;
    } catch (error) {
      return interceptorFailed(tool, interceptorName(interceptor, index), 'after', error);
    }
  }
  return current;
}

function definedOf(changes: ToolCallChanges): Partial<ToolCallChanges> {
  return Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined));
}

function isReservedMetaKey(key: string): boolean {
  if (RESERVED_META_KEYS.has(key)) return true;
  const slash = key.indexOf('/');
  if (slash < 0) return false;
  return key
    .slice(0, slash)
    .split('.')
    .some((label) => label === 'modelcontextprotocol' || label === 'mcp');
}

function invalid(tool: CallableTool, message: string): HostError {
  const { name, serverName } = tool.definition;
  return new HostError({
    code: 'INVALID_CALL_OPTIONS',
    serverName,
    toolName: name,
    message: `Tool "${name}" of MCP server "${serverName}" was not called: ${message}`,
  });
}

/** What goes on the wire for the per-call extras. */
export interface WireExtras {
  /** Entries for the request's `_meta`. */
  readonly meta?: Record<string, unknown>;
  /** Per-request headers for the transport (`Authorization` already moved to the fetch's marker). */
  readonly headers?: Record<string, string>;
}

/**
 * Checks the per-call `meta` and `headers` against the tool's server; what to send, or the
 * `INVALID_CALL_OPTIONS` error.
 */
export function checkCallExtras(tool: CallableTool, extras: ToolCallExtras): WireExtras | HostError {
  const { meta, headers } = extras;
  let wireMeta: Record<string, unknown> | undefined;
  if (meta !== undefined) {
    if (meta === null || typeof meta !== 'object' || Array.isArray(meta)) return invalid(tool, '`meta` must be an object.');
    const reserved = Object.keys(meta).filter(isReservedMetaKey);
    if (reserved.length > 0) {
      return invalid(
        tool,
        `\`meta\` may not set ${reserved.map((key) => `"${escapeControlText(key, { maxLength: 100 })}"`).join(', ')}: toolhost sets the progress token, the trace context (use the \`traceContext\` host option) and the keys reserved by MCP itself.`,
      );
    }
    if (Object.keys(meta).length > 0) wireMeta = { ...meta };
  }
  if (headers === undefined || Object.keys(headers).length === 0) return { ...(wireMeta ? { meta: wireMeta } : {}) };
  const kind = tool.transportKind;
  if (kind !== 'http') {
    return invalid(
      tool,
      `per-call \`headers\` need a Streamable HTTP server, and this one is ${kind === 'stdio' ? 'a stdio server' : 'a legacy SSE server'}; pass what the server needs in \`meta\` instead.`,
    );
  }
  const wireHeaders: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    const shown = `"${escapeControlText(name, { maxLength: 100 })}"`;
    if (!HEADER_NAME.test(name)) return invalid(tool, `per-call header ${shown} is not a valid HTTP header name.`);
    if (typeof value !== 'string' || !HEADER_VALUE.test(value)) {
      return invalid(
        tool,
        `the value of per-call header ${shown} must be text of visible ASCII, spaces and tabs (no line breaks), at most 8192 characters.`,
      );
    }
    const lower = name.toLowerCase();
    if (RESERVED_HEADERS.has(lower) || lower.startsWith('mcp-')) {
      return invalid(tool, `per-call header ${shown} is set by the transport itself and cannot be replaced.`);
    }
    if (lower === 'authorization') {
      if (extras.allowAuthorizationHeader !== true) {
        return invalid(
          tool,
          'per-call header "Authorization" would replace the server entry\'s own credentials; pass `allowAuthorizationHeader: true` to do that on purpose.',
        );
      }
      wireHeaders[PER_CALL_AUTHORIZATION_HEADER] = value;
      continue;
    }
    wireHeaders[lower] = value;
  }
  return { ...(wireMeta ? { meta: wireMeta } : {}), headers: wireHeaders };
}
