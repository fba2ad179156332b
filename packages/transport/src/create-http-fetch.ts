import type { FetchLike } from '@modelcontextprotocol/client';
import { clampRetryMs, DEFAULT_MAX_MESSAGE_BYTES, messageTooLarge } from './message-limits.js';
import { escapeControlText } from '@toolhost/contract';
import { TransportError } from './transport-error.js';

/** The last authentication challenge a remote server answered. */
export interface AuthChallenge {
  /** 401 or 403. */
  status: number;
  /** Raw `WWW-Authenticate` header (empty when the server sent none). */
  wwwAuthenticate: string;
  /** `resource_metadata` parameter, when present. */
  resourceMetadataUrl?: string;
  /** `scope` parameter, when present. */
  scope?: string;
}

/** How an event stream (the answer to a POST, or the GET stream) ended. */
export interface StreamEnd {
  /** `POST` (the answer to requests) or `GET` (the server's own stream). */
  method: string;
  /** JSON-RPC request ids carried by the POST (empty for GET); read from the request body when first read. */
  readonly requestIds: (string | number)[];
  /** The stream carried an event id, so the SDK may resume it. */
  resumable: boolean;
  /** The stream broke (network error) rather than ending normally. */
  broken: boolean;
}

/** What a wrapped fetch observed, read by the connection logic to build precise errors. */
export interface HttpObservations {
  /** The last 401/403 answer, if any. */
  challenge?: AuthChallenge;
  /** Called when an event stream ends or breaks (not when the client aborted it). */
  onStreamEnd?: (end: StreamEnd) => void;
  /** Called when a request could not be sent at all (network error, not an abort). */
  onFetchFailed?: (error: unknown, method: string) => void;
  /** Called when an event of an event stream went over `maxMessageBytes` (the stream is then errored). */
  onMessageTooLarge?: (error: Error, end: Omit<StreamEnd, 'resumable' | 'broken'>) => void;
}

function requestIdsOf(body: unknown): (string | number)[] {
  if (typeof body !== 'string') return [];
  try {
    const parsed = JSON.parse(body) as unknown;
    return (Array.isArray(parsed) ? parsed : [parsed]).flatMap((message: unknown) => {
      const { id, method } = (message ?? {}) as { id?: unknown; method?: unknown };
      return typeof method === 'string' && (typeof id === 'string' || typeof id === 'number') ? [id] : [];
    });
  } catch {
    return [];
  }
}

/** What {@link limitEventStream} reports when the stream ends. */
type EventStreamReport = (resumable: boolean, broken: boolean) => void;

/** The SSE field a line starts with, if it is one of those this stream looks at. */
const RETRY = 'retry:';

/**
 * Passes an event stream through, in linear time, with three safeguards:
 * - an event (the bytes between two blank lines) longer than `maxBytes` errors the stream with
 *   `tooLarge()` (reported to `onTooLarge` first), so an endless event cannot exhaust memory;
 * - a `retry:` field is clamped to 100 ms – 60 s (a huge value would overflow `setTimeout` to
 *   1 ms and turn reconnects into a busy loop; a tiny one would do the same);
 * - `report` says how the stream ended and whether it carried an event id (resumable).
 * Only a line that may be a `retry:` line is held back until its end; everything else is
 * passed on as it arrives.
 */
function limitEventStream(
  body: ReadableStream<Uint8Array>,
  options: { maxBytes: number; tooLarge: () => Error; onTooLarge: (error: Error) => void; report: EventStreamReport },
): ReadableStream<Uint8Array> {
  const { maxBytes, report } = options;
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
  let resumable = false;
  let eventBytes = 0;
  /** The first characters of the current line (enough to recognise `retry:` and `id:`). */
  let lineStart = '';
  /** Whether the current line has any content so far. */
  let lineLength = 0;
  /** Pieces of the current line, held while it may be a `retry:` line. */
  let held: string[] = [];
  let ended = false;
  /** Whether the last chunk decoded to one UTF-16 unit per byte (see `exact` below). */
  let previousExact = true;
  const rewriteRetry = (line: string): string => {
    const value = line.slice(RETRY.length).replace(/\r$/, '').trim();
    if (!/^\d+$/.test(value)) return line;
    return `${RETRY} ${clampRetryMs(Number(value))}`;
  };
  const mayBeRetry = (): boolean => (lineStart.length < RETRY.length ? RETRY.startsWith(lineStart) : lineStart.startsWith(RETRY));
  const processText = (text: string): string => {
    let out = '';
    const pieces = text.split('\n');
    for (let index = 0; index < pieces.length; index++) {
      const piece = pieces[index] ?? '';
      const lineEnds = index < pieces.length - 1;
      if (lineStart.length < RETRY.length) lineStart += piece.slice(0, RETRY.length - lineStart.length);
      lineLength += piece.length;
      if (mayBeRetry()) held.push(piece);
      else {
        if (held.length > 0) out += held.join('');
        held = [];
        out += piece;
      }
      if (!lineEnds) continue;
      if (held.length > 0) out += rewriteRetry(held.join(''));
      if (lineStart.startsWith('id:')) resumable = true;
      // A blank line (or a lone CR) ends the event.
      if (lineLength === 0 || (lineLength === 1 && lineStart === '\r')) eventBytes = 0;
      out += '\n';
      held = [];
      lineStart = '';
      lineLength = 0;
    }
    return out;
  };
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      for (;;) {
        let chunk: Awaited<ReturnType<typeof reader.read>>;
        try {
          chunk = await reader.read();
        } catch (error) {
          report(resumable, true);
          controller.error(error);
          return;
        }
        if (chunk.done) {
          const rest = processText(decoder.decode()) + held.join('');
          held = [];
          if (rest) controller.enqueue(encoder.encode(rest));
          report(resumable, false);
          controller.close();
          return;
        }
        const text = decoder.decode(chunk.value, { stream: true });
        // One UTF-16 unit per byte, after a chunk that was the same: no multi-byte character, no
        // byte held back by the decoder or completed from the chunk before, so `text` is these bytes.
        const exact = previousExact && text.length === chunk.value.byteLength;
        previousExact = text.length === chunk.value.byteLength;
        // Count the bytes of the event in progress: up to the last blank line this chunk resets it.
        const lastBreak = Math.max(text.lastIndexOf('\n\n'), text.lastIndexOf('\n\r\n'));
        eventBytes = lastBreak === -1 ? eventBytes + chunk.value.byteLength : Buffer.byteLength(text.slice(lastBreak));
        if (eventBytes > maxBytes && !ended) {
          ended = true;
          const error = options.tooLarge();
          options.onTooLarge(error);
          report(resumable, true);
          controller.error(error);
          void reader.cancel(error).catch(() => undefined);
          return;
        }
        const carried = held.length > 0;
        const out = processText(text);
        if (out.length > 0) {
          // Unchanged (nothing held from before, no retry: line held back or rewritten): pass the bytes received, not a re-encoding.
          controller.enqueue(out === text && exact && !carried ? chunk.value : encoder.encode(out));
          return;
        }
      }
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
}

/** Passes a (JSON) body through; more than `maxBytes` errors it with `tooLarge()`. */
function limitBody(body: ReadableStream<Uint8Array>, maxBytes: number, tooLarge: () => Error): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  let total = 0;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const chunk = await reader.read();
      if (chunk.done) {
        controller.close();
        return;
      }
      total += chunk.value.byteLength;
      if (total > maxBytes) {
        const error = tooLarge();
        controller.error(error);
        void reader.cancel(error).catch(() => undefined);
        return;
      }
      controller.enqueue(chunk.value);
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
}

/** Reads one `key="value"` or `key=value` parameter of a `WWW-Authenticate` header. */
export function readAuthParameter(header: string, name: string): string | undefined {
  const match = new RegExp(`(?:^|[\\s,])${name}=(?:"((?:[^"\\\\]|\\\\.)*)"|([^\\s,]+))`, 'i').exec(header);
  const value = match?.[1] ?? match?.[2];
  return value?.replace(/\\(.)/g, '$1');
}

/** Options of {@link createHttpFetch}. */
export interface CreateHttpFetchOptions {
  /** The fetch to wrap. */
  fetch: FetchLike;
  /** Where 401/403 challenges are recorded. */
  observations: HttpObservations;
  /** Turn a GET answered 404 into 405 (Streamable HTTP only, never legacy SSE). @default true */
  rewriteGetNotFound?: boolean;
  /** Name of the server entry, for errors. @default 'server' */
  serverName?: string;
  /** Cap of one SSE event and of one response body, in bytes. @default DEFAULT_MAX_MESSAGE_BYTES (32 MiB) */
  maxMessageBytes?: number;
  /**
   * The server entry's name and URL (masked, `maskUrl`: it goes into messages): when given, a
   * successful answer whose `Mcp-Session-Id` is not visible ASCII (0x21–0x7E) is refused with a
   * {@link TransportError} `INVALID_SESSION_ID` naming them.
   */
  server?: { readonly name: string; readonly url: string };
}

/**
 * Request header through which the host hands a per-call `Authorization` value to the wrapped
 * fetch (the SDK's transport will not let a per-request header replace `Authorization`): the
 * fetch of {@link createHttpFetch} removes it and sends its value as `Authorization` instead.
 */
export const PER_CALL_AUTHORIZATION_HEADER = 'x-toolhost-per-call-authorization';

/** The request with a per-call `Authorization` put in place (see {@link PER_CALL_AUTHORIZATION_HEADER}). */
function withPerCallAuthorization(init: RequestInit | undefined): RequestInit | undefined {
  if (init?.headers === undefined) return init;
  const headers = new Headers(init.headers);
  const authorization = headers.get(PER_CALL_AUTHORIZATION_HEADER);
  if (authorization === null) return init;
  headers.delete(PER_CALL_AUTHORIZATION_HEADER);
  headers.set('authorization', authorization);
  return { ...init, headers };
}

/** What the MCP transports spec allows in a session id: visible ASCII only. */
const SESSION_ID = /^[\x21-\x7e]+$/;

/**
 * Wraps `fetch` for a remote server:
 * - a GET (the optional server stream) answered 404 becomes 405, which the SDK reads as
 *   "this server offers no GET stream", so POST-only servers keep working;
 * - 401/403 answers are recorded in `observations` with their `WWW-Authenticate` details;
 * - an SSE event, or a non-stream body, longer than `maxMessageBytes` fails with
 *   `MESSAGE_TOO_LARGE` naming the server and the limit; a server-sent `retry:` is clamped to
 *   100 ms – 60 s;
 * - with `server`, a successful answer carrying an `Mcp-Session-Id` outside 0x21–0x7E is refused
 *   (`TransportError` `INVALID_SESSION_ID`) before the SDK can adopt and echo it;
 * - a {@link PER_CALL_AUTHORIZATION_HEADER} header replaces `Authorization` for that request.
 */
export function createHttpFetch(options: CreateHttpFetchOptions): FetchLike {
  const { fetch: baseFetch, observations, rewriteGetNotFound = true, server } = options;
  const maxBytes = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
  const serverName = options.serverName ?? 'server';
  return async (url, givenInit) => {
    const init = withPerCallAuthorization(givenInit);
    const method = (init?.method ?? 'GET').toUpperCase();
    let response: Response;
    try {
      response = await baseFetch(url, init);
    } catch (error) {
      if (!init?.signal?.aborted) observations.onFetchFailed?.(error, method);
      throw error;
    }
    if (response.status === 401 || response.status === 403) {
      const wwwAuthenticate = response.headers.get('www-authenticate') ?? '';
      const resourceMetadataUrl = readAuthParameter(wwwAuthenticate, 'resource_metadata');
      const scope = readAuthParameter(wwwAuthenticate, 'scope');
      observations.challenge = {
        status: response.status,
        wwwAuthenticate,
        ...(resourceMetadataUrl ? { resourceMetadataUrl } : {}),
        ...(scope ? { scope } : {}),
      };
    }
    const sessionId = response.headers.get('mcp-session-id');
    if (server && response.ok && sessionId !== null && !SESSION_ID.test(sessionId)) {
      await response.body?.cancel().catch(() => undefined);
      throw new TransportError({
        code: 'INVALID_SESSION_ID',
        message: `MCP server '${server.name}' (${server.url}) sent an invalid session id ${JSON.stringify(escapeControlText(sessionId, { maxLength: 100 }))}: an Mcp-Session-Id may only hold visible ASCII characters (0x21–0x7E). The session was refused; fix the server.`,
        serverName: server.name,
        url: server.url,
      });
    }
    if (rewriteGetNotFound && method === 'GET' && response.status === 404) {
      await response.body?.cancel().catch(() => undefined);
      return new Response(null, { status: 405, statusText: 'Method Not Allowed', headers: response.headers });
    }
    const isEventStream = (response.headers.get('content-type') ?? '').toLowerCase().startsWith('text/event-stream');
    if (!response.body) return response;
    const href = String(url_(url));
    const rebuilt = (body: ReadableStream<Uint8Array>): Response =>
      new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
    if (!isEventStream) {
      return rebuilt(
        limitBody(response.body, maxBytes, () =>
          messageTooLarge({ serverName, what: 'an HTTP response body', limit: maxBytes, url: href }),
        ),
      );
    }
    // The request body is parsed again only when a stream end or an oversized event needs its ids.
    let requestIds: (string | number)[] | undefined;
    const ids = (): (string | number)[] => (requestIds ??= method === 'POST' ? requestIdsOf(init?.body) : []);
    const body = limitEventStream(response.body, {
      maxBytes,
      tooLarge: () => messageTooLarge({ serverName, what: 'an SSE event', limit: maxBytes, url: href }),
      onTooLarge: (error) => observations.onMessageTooLarge?.(error, { method, requestIds: ids() }),
      report: (resumable, broken) => {
        if (response.ok && (method === 'POST' || method === 'GET') && !init?.signal?.aborted)
          observations.onStreamEnd?.({
            method,
            get requestIds() {
              return ids();
            },
            resumable,
            broken,
          });
      },
    });
    return rebuilt(body);
  };
}

function url_(url: string | URL | Request): string | URL {
  return typeof url === 'string' || url instanceof URL ? url : url.url;
}
