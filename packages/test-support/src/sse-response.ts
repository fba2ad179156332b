/** One Server-Sent Event: an optional `event:` name and its `data` (a string as is, anything else as JSON). */
export interface SseEvent {
  /** The `event:` field, when the vendor names its events (OpenAI Responses, Anthropic). */
  readonly event?: string;
  /** The `data:` field: a string is sent as is (`[DONE]`), anything else as one line of JSON. */
  readonly data: unknown;
}

/** Options of {@link sseResponse}. */
export interface SseResponseOptions {
  /** Send the body in pieces of this many bytes (splitting events, lines and UTF-8 characters), instead of one piece per event. */
  readonly chunkBytes?: number;
}

/**
 * The text of a `text/event-stream` body: each event as `event: name` (when given) and
 * `data: ...` lines, ended by a blank line.
 *
 * @example
 * ```ts
 * sseText([{ data: { candidates: [] } }]); // 'data: {"candidates":[]}\n\n'
 * ```
 */
export function sseText(events: readonly SseEvent[]): string {
  return events
    .map(
      ({ event, data }) =>
        `${event === undefined ? '' : `event: ${event}\n`}data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`,
    )
    .join('');
}

/**
 * A `text/event-stream` response streaming `events`, for msw handlers that stand in for a
 * vendor's streaming API. By default each event is its own body chunk; `chunkBytes` cuts the
 * bytes at fixed sizes instead, so the SDK's SSE parser has to reassemble events, lines and
 * multi-byte characters.
 *
 * @example
 * ```ts
 * http.post(url, () => sseResponse([{ event: 'message_stop', data: { type: 'message_stop' } }], { chunkBytes: 7 }));
 * ```
 */
export function sseResponse(events: readonly SseEvent[], options: SseResponseOptions = {}): Response {
  const encoder = new TextEncoder();
  const pieces: Uint8Array[] = [];
  if (options.chunkBytes === undefined) {
    for (const event of events) pieces.push(encoder.encode(sseText([event])));
  } else {
    const bytes = encoder.encode(sseText(events));
    for (let start = 0; start < bytes.length; start += options.chunkBytes) pieces.push(bytes.subarray(start, start + options.chunkBytes));
  }
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      const piece = pieces.shift();
      if (piece) controller.enqueue(piece);
      else controller.close();
    },
  });
  return new Response(body, { headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' } });
}
