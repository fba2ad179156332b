import type { ModelToolCall } from './model-adapter.js';

/**
 * The most characters (UTF-16 code units) of arguments one streamed tool call may grow to
 * before a stream accumulator gives up with `TOOL_ARGUMENTS_TOO_LARGE`: 1 MiB of JSON text,
 * several times what any model writes in one turn.
 */
export const DEFAULT_MAX_TOOL_ARGUMENTS_LENGTH = 1_048_576;

/** Text the model wrote, as it arrives (first candidate or choice only). */
export interface ModelStreamTextDelta {
  /** Always `text-delta`. */
  readonly type: 'text-delta';
  /** The new text. */
  readonly text: string;
}

/** Reasoning the vendor shows (Gemini thought summaries, Anthropic thinking, OpenAI reasoning summaries), as it arrives. */
export interface ModelStreamReasoningDelta {
  /** Always `reasoning-delta`. */
  readonly type: 'reasoning-delta';
  /** The new reasoning text. */
  readonly text: string;
}

/** A tool call began: its name (and the vendor's call id) are known, its arguments not yet. */
export interface ModelStreamToolCallStart {
  /** Always `tool-call-start`. */
  readonly type: 'tool-call-start';
  /** The call's number in this stream: 0 for the first call that starts, then 1, 2, ... */
  readonly index: number;
  /** The vendor's call id, when it has one. */
  readonly id?: string;
  /** The tool name the model used. */
  readonly name: string;
}

/**
 * More of a tool call's arguments, as the JSON text the vendor streams (a fragment that may
 * end anywhere, even inside a string or an escape). Vendors that send arguments as a whole
 * (Gemini) send the whole JSON in one delta; Gemini's typed partial arguments (Vertex AI) send none.
 */
export interface ModelStreamToolCallDelta {
  /** Always `tool-call-delta`. */
  readonly type: 'tool-call-delta';
  /** The call's number in this stream (see {@link ModelStreamToolCallStart.index}). */
  readonly index: number;
  /** The next fragment of the arguments' JSON text. */
  readonly argumentsDelta: string;
}

/**
 * A tool call is complete and its arguments parsed. The arguments are as the model sent them:
 * the OpenAI adapters remove strict-mode `null`s only in `getToolCalls`.
 */
export interface ModelStreamToolCallEnd {
  /** Always `tool-call-end`. */
  readonly type: 'tool-call-end';
  /** The call's number in this stream (see {@link ModelStreamToolCallStart.index}). */
  readonly index: number;
  /** The complete call. */
  readonly call: ModelToolCall;
}

/** What a streamed model response produced so far, in vendor-neutral form, for a UI that shows it as it arrives. */
export type ModelStreamEvent =
  ModelStreamTextDelta | ModelStreamReasoningDelta | ModelStreamToolCallStart | ModelStreamToolCallDelta | ModelStreamToolCallEnd;

/** Options of a stream accumulator. */
export interface ModelStreamOptions {
  /**
   * The most characters (UTF-16 code units) of arguments one tool call may have; a call that
   * grows past it throws `AdapterError` `TOOL_ARGUMENTS_TOO_LARGE` naming the tool.
   * @default DEFAULT_MAX_TOOL_ARGUMENTS_LENGTH (1 MiB)
   */
  readonly maxArgumentsLength?: number;
}

/** Options of `collectStream`. */
export interface CollectModelStreamOptions extends ModelStreamOptions {
  /** Called with every event as its chunk arrives (text to show, tool calls starting and ending). */
  readonly onEvent?: (event: ModelStreamEvent) => void;
}

/**
 * Assembles one streamed model response, chunk by chunk: `push` each chunk (or event) the
 * vendor SDK yields and show the events it returns; `finish` once the stream has ended returns
 * the same response type the non-streaming API returns, ready for `host.handleModelResponse`.
 * One accumulator per stream; it throws `AdapterError` (`INVALID_TOOL_CALL`,
 * `INVALID_TOOL_ARGUMENTS`, `TOOL_ARGUMENTS_TOO_LARGE`, `INCOMPLETE_STREAM`) as soon as it knows.
 *
 * @typeParam TChunk - what the vendor SDK's stream yields.
 * @typeParam TResponse - the vendor's complete response.
 */
export interface ModelStreamAccumulator<TChunk, TResponse> {
  /** Take the next chunk; returns the events it produced, in order (often none). */
  push(chunk: TChunk): ModelStreamEvent[];
  /**
   * The complete response. Call once, after the stream ended.
   * @throws AdapterError `INCOMPLETE_STREAM` when the stream ended before the vendor's end marker.
   */
  finish(): TResponse;
}

/**
 * The streaming half of a shipped adapter: assemble a vendor SDK's stream into the response
 * type `getToolCalls` (and so `host.handleModelResponse`) takes.
 *
 * @typeParam TChunk - what the vendor SDK's stream yields.
 * @typeParam TResponse - the vendor's complete response.
 *
 * @example
 * ```ts
 * const response = await adapter.collectStream(stream, { onEvent: (e) => e.type === 'text-delta' && print(e.text) });
 * const { toolResults } = await host.handleModelResponse(response);
 * ```
 */
export interface StreamingModelAdapter<TChunk, TResponse> {
  /** A fresh accumulator for one stream, for code that iterates the stream itself. */
  createStreamAccumulator(options?: ModelStreamOptions): ModelStreamAccumulator<TChunk, TResponse>;
  /** Read the whole stream and return the complete response (`onEvent` sees the events as they come). */
  collectStream(stream: AsyncIterable<TChunk>, options?: CollectModelStreamOptions): Promise<TResponse>;
}

/**
 * Read `stream` to its end through `accumulator` and return the complete response, calling
 * `onEvent` with every event. An error from the stream, the accumulator or `onEvent` stops
 * reading (which makes the vendor SDKs abort the HTTP request) and is thrown as is.
 *
 * @example
 * ```ts
 * const response = await collectModelStream(stream, adapter.createStreamAccumulator(), { onEvent: show });
 * ```
 */
export async function collectModelStream<TChunk, TResponse>(
  stream: AsyncIterable<TChunk>,
  accumulator: ModelStreamAccumulator<TChunk, TResponse>,
  options: Pick<CollectModelStreamOptions, 'onEvent'> = {},
): Promise<TResponse> {
  const { onEvent } = options;
  const iterator = stream[Symbol.asyncIterator]();
  try {
    for (;;) {
      const next = await iterator.next();
      if (next.done) break;
      const events = accumulator.push(next.value);
      if (onEvent) for (const event of events) onEvent(event);
    }
  } catch (error) {
    // Stop the stream (the vendor SDKs abort the HTTP request when their iterator returns), but
    // report the error now rather than after the SDK's clean-up, which need not be quick.
    void Promise.resolve()
      .then(() => iterator.return?.())
      .catch(() => undefined);
    throw error;
  }
  return accumulator.finish();
}
