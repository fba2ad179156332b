import type { FetchLike } from '@modelcontextprotocol/client';
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
  /** JSON-RPC request ids carried by the POST (empty for GET). */
  requestIds: (string | number)[];
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

/** Passes `body` through unchanged, reporting how it ended and whether it carried an event id. */
function watchEventStream(
  body: ReadableStream<Uint8Array>,
  report: (resumable: boolean, broken: boolean) => void,
): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let resumable = false;
  let tail = '';
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      let chunk: Awaited<ReturnType<typeof reader.read>>;
      try {
        chunk = await reader.read();
      } catch (error) {
        report(resumable, true);
        controller.error(error);
        return;
      }
      if (chunk.done) {
        report(resumable, false);
        controller.close();
        return;
      }
      const text = tail + decoder.decode(chunk.value, { stream: true });
      if (/(?:^|\n)id:/.test(text)) resumable = true;
      tail = text.slice(text.lastIndexOf('\n') + 1);
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
  /**
   * The server entry's name and URL: when given, a successful answer whose `Mcp-Session-Id` is not
   * visible ASCII (0x21–0x7E) is refused with a {@link TransportError} `INVALID_SESSION_ID` naming them.
   */
  server?: { readonly name: string; readonly url: string };
}

/** What the MCP transports spec allows in a session id: visible ASCII only. */
const SESSION_ID = /^[\x21-\x7e]+$/;

/**
 * Wraps `fetch` for a remote server:
 * - a GET (the optional server stream) answered 404 becomes 405, which the SDK reads as
 *   "this server offers no GET stream", so POST-only servers keep working;
 * - 401/403 answers are recorded in `observations` with their `WWW-Authenticate` details;
 * - with `server`, a successful answer carrying an `Mcp-Session-Id` outside 0x21–0x7E is refused
 *   (`TransportError` `INVALID_SESSION_ID`) before the SDK can adopt and echo it.
 */
export function createHttpFetch(options: CreateHttpFetchOptions): FetchLike {
  const { fetch: baseFetch, observations, rewriteGetNotFound = true, server } = options;
  return async (url, init) => {
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
    const onEnd = observations.onStreamEnd;
    const isEventStream = (response.headers.get('content-type') ?? '').toLowerCase().startsWith('text/event-stream');
    if (onEnd && (method === 'POST' || method === 'GET') && response.ok && isEventStream && response.body) {
      const requestIds = method === 'POST' ? requestIdsOf(init?.body) : [];
      const body = watchEventStream(response.body, (resumable, broken) => {
        if (!init?.signal?.aborted) onEnd({ method, requestIds, resumable, broken });
      });
      return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
    }
    return response;
  };
}
