import type { Response, ResponseStreamEvent } from 'openai/resources/responses/responses';
import {
  collectModelStream,
  type CollectModelStreamOptions,
  type ModelStreamAccumulator,
  type ModelStreamEvent,
  type ModelStreamOptions,
} from '@toolhost/contract';
import { checkArgumentsLength, incompleteStream, parseStreamedArguments, resolveMaxArgumentsLength } from './streamed-arguments.js';

type Item = Record<string, unknown> & { type: string };
type Part = Record<string, unknown> & { type: string };

/** One output item, by its `output_index`. */
interface ItemState {
  /** The item from `response.output_item.added` (or `.done`), completed by the events that follow. */
  item?: Item;
  /** Events that arrived before the item was added, handled when it is. */
  readonly early: ResponseStreamEvent[];
  /** A `function_call` item's arguments text so far. */
  args: string;
  /** The call's number in this stream, for `function_call` items. */
  callIndex?: number;
  ended: boolean;
}

/** The event types that carry an `output_index`. */
type ItemEvent = Extract<ResponseStreamEvent, { output_index: number }>;

/**
 * Create an accumulator for one Responses API stream: push every event that
 * `openai.responses.stream(...)` or `openai.responses.create({ ..., stream: true })` yields, then
 * `finish()` returns the `Response` the non-streaming API would have returned (with
 * `output_text`), ready for `host.handleModelResponse`. Output items are assembled by their
 * `output_index` from `response.output_item.added`, `response.function_call_arguments.delta`
 * (fragments split anywhere; several calls may interleave), `.done` and
 * `response.output_item.done`; the `output` of `response.completed` is used only for items the
 * stream did not carry. A call's arguments are parsed as soon as they are done.
 *
 * `push` returns `text-delta` (output text and refusals), `reasoning-delta` (reasoning summaries
 * and text) and `tool-call-*` events.
 *
 * @throws AdapterError `INVALID_TOOL_ARGUMENTS` (arguments that are not a JSON object),
 *   `TOOL_ARGUMENTS_TOO_LARGE` (past `maxArgumentsLength`), `INCOMPLETE_STREAM` (no
 *   `response.completed` or `response.incomplete`, or a `response.failed` or `error` event),
 *   naming the tool when there is one.
 *
 * @example
 * ```ts
 * const accumulator = createOpenAIResponsesStreamAccumulator();
 * for await (const event of openai.responses.stream({ model, input, tools })) {
 *   for (const e of accumulator.push(event)) if (e.type === 'text-delta') process.stdout.write(e.text);
 * }
 * const response = accumulator.finish();
 * ```
 */
export function createOpenAIResponsesStreamAccumulator(
  options?: ModelStreamOptions,
): ModelStreamAccumulator<ResponseStreamEvent, Response> {
  const limit = resolveMaxArgumentsLength(options);
  let base: Record<string, unknown> | undefined;
  let terminal = false;
  let finished = false;
  let calls = 0;
  const items = new Map<number, ItemState>();
  const indexById = new Map<string, number>();

  const stateOf = (index: number): ItemState => {
    let state = items.get(index);
    if (!state) {
      state = { early: [], args: '', ended: false };
      items.set(index, state);
    }
    return state;
  };

  const refOf = (item: Item): { toolName: string; callId?: string } => ({
    toolName: typeof item['name'] === 'string' ? item['name'] : item.type,
    callId: typeof item['call_id'] === 'string' ? item['call_id'] : undefined,
  });

  const partOf = (item: Item, contentIndex: number, fallback: Part): Part => {
    const content = Array.isArray(item['content']) ? (item['content'] as Part[]) : [];
    item['content'] = content;
    content[contentIndex] ??= { ...fallback };
    return content[contentIndex];
  };

  const startCall = (state: ItemState, item: Item, events: ModelStreamEvent[]): void => {
    if (item.type !== 'function_call' || state.callIndex !== undefined) return;
    state.callIndex = calls++;
    events.push({ type: 'tool-call-start', index: state.callIndex, id: String(item['call_id']), name: String(item['name']) });
  };

  const appendArgs = (state: ItemState, item: Item, piece: string, events: ModelStreamEvent[]): void => {
    if (!piece || state.ended) return;
    state.args += piece;
    checkArgumentsLength(state.args.length, limit, refOf(item));
    if (state.callIndex !== undefined) events.push({ type: 'tool-call-delta', index: state.callIndex, argumentsDelta: piece });
  };

  const endCall = (state: ItemState, item: Item, finalArgs: string | undefined, events: ModelStreamEvent[]): void => {
    if (item.type !== 'function_call' || state.ended) return;
    if (typeof finalArgs === 'string' && finalArgs !== '') {
      checkArgumentsLength(finalArgs.length, limit, refOf(item));
      state.args = finalArgs; // the `.done` text is the whole arguments, whatever the deltas said
    }
    const args = parseStreamedArguments(state.args, {}, refOf(item));
    state.ended = true;
    item['arguments'] = state.args;
    if (state.callIndex !== undefined) {
      events.push({
        type: 'tool-call-end',
        index: state.callIndex,
        call: { id: String(item['call_id']), name: String(item['name']), arguments: args },
      });
    }
  };

  const handleItemEvent = (event: ItemEvent, events: ModelStreamEvent[]): void => {
    const state = stateOf(event.output_index);
    if (event.type === 'response.output_item.added' || (event.type === 'response.output_item.done' && !state.item)) {
      if (state.item) return; // added twice: keep the first
      const item = { ...(event.item as unknown as Item) };
      state.item = item;
      if (typeof item['id'] === 'string') indexById.set(item['id'], event.output_index);
      startCall(state, item, events);
      if (item.type === 'function_call') {
        const initial = typeof item['arguments'] === 'string' ? item['arguments'] : '';
        item['arguments'] = '';
        if (event.type === 'response.output_item.added') appendArgs(state, item, initial, events);
      }
      for (const early of state.early.splice(0)) handleItemEvent(early as ItemEvent, events);
      if (event.type === 'response.output_item.added') return;
    }
    const item = state.item;
    if (!item) {
      state.early.push(event);
      return;
    }
    switch (event.type) {
      case 'response.output_item.done': {
        const done = { ...(event.item as unknown as Item) };
        if (done.type === 'function_call')
          endCall(state, item, typeof done['arguments'] === 'string' ? done['arguments'] : undefined, events);
        state.item = done.type === 'function_call' ? { ...done, arguments: state.args } : done;
        return;
      }
      case 'response.function_call_arguments.delta':
        appendArgs(state, item, event.delta, events);
        return;
      case 'response.function_call_arguments.done':
        endCall(state, item, event.arguments, events);
        return;
      case 'response.content_part.added':
      case 'response.content_part.done': {
        const content = Array.isArray(item['content']) ? (item['content'] as Part[]) : [];
        content[event.content_index] = { ...(event.part as unknown as Part) };
        item['content'] = content;
        return;
      }
      case 'response.output_text.delta': {
        const part = partOf(item, event.content_index, { type: 'output_text', text: '', annotations: [] });
        part['text'] = String(part['text'] ?? '') + event.delta;
        if (event.delta) events.push({ type: 'text-delta', text: event.delta });
        return;
      }
      case 'response.output_text.done':
        partOf(item, event.content_index, { type: 'output_text', text: '', annotations: [] })['text'] = event.text;
        return;
      case 'response.output_text.annotation.added': {
        const part = partOf(item, event.content_index, { type: 'output_text', text: '', annotations: [] });
        part['annotations'] = [...(Array.isArray(part['annotations']) ? (part['annotations'] as unknown[]) : []), event.annotation];
        return;
      }
      case 'response.refusal.delta': {
        const part = partOf(item, event.content_index, { type: 'refusal', refusal: '' });
        part['refusal'] = String(part['refusal'] ?? '') + event.delta;
        if (event.delta) events.push({ type: 'text-delta', text: event.delta });
        return;
      }
      case 'response.refusal.done':
        partOf(item, event.content_index, { type: 'refusal', refusal: '' })['refusal'] = event.refusal;
        return;
      case 'response.reasoning_summary_text.delta':
      case 'response.reasoning_text.delta':
        if (event.delta) events.push({ type: 'reasoning-delta', text: event.delta });
        return;
      default:
        return; // other item events (web search, code interpreter, ...): their output_item.done carries the item
    }
  };

  return {
    push(event) {
      if (finished) throw incompleteStream('This Responses stream accumulator has already finished; create one per stream.');
      const events: ModelStreamEvent[] = [];
      switch (event.type) {
        case 'response.created':
        case 'response.queued':
        case 'response.in_progress':
          base = { ...(event.response as unknown as Record<string, unknown>) };
          return events;
        case 'response.completed':
        case 'response.incomplete':
          base = { ...(event.response as unknown as Record<string, unknown>) };
          terminal = true;
          return events;
        case 'response.failed': {
          const error = event.response.error;
          throw incompleteStream(
            `The OpenAI response failed${error ? `: ${error.message} (${error.code})` : ''}, so no tool was called. Retry the turn.`,
          );
        }
        case 'error':
          throw incompleteStream(
            `The OpenAI stream reported an error: ${event.message}${event.code ? ` (${event.code})` : ''}, so no tool was called. Retry the turn.`,
          );
        default:
          break;
      }
      if ('output_index' in event && typeof event.output_index === 'number') {
        handleItemEvent(event as ItemEvent, events);
      } else if ('item_id' in event && typeof event.item_id === 'string' && indexById.has(event.item_id)) {
        handleItemEvent({ ...event, output_index: indexById.get(event.item_id)! } as ItemEvent, events);
      }
      return events;
    },

    finish() {
      if (finished) throw incompleteStream('This Responses stream accumulator has already finished; create one per stream.');
      finished = true;
      const ordered = [...items.entries()].sort(([a], [b]) => a - b);
      if (!terminal) {
        const open = ordered.find(([, state]) => state.item?.type === 'function_call' && !state.ended)?.[1].item;
        const which = open ? ` in the middle of the call to tool '${String(open['name'])}'` : '';
        throw incompleteStream(
          `The OpenAI response stream ended before response.completed${which} (cut off or aborted), so no tool was called. Retry the turn.`,
          open ? refOf(open) : undefined,
        );
      }
      const response = base!;
      const given = Array.isArray(response['output']) ? (response['output'] as Item[]) : [];
      const output: Item[] = [];
      const last = Math.max(given.length - 1, ...items.keys());
      for (let index = 0; index <= last; index++) {
        const state = items.get(index);
        if (state && !state.item) {
          throw incompleteStream(
            `The OpenAI response stream sent events for output item ${index}, which was never added; it is out of order.`,
          );
        }
        const assembled = state?.item;
        const fromResponse = given[index];
        if (state && assembled) {
          endCall(state, assembled, undefined, []);
          output.push(assembled);
        } else if (fromResponse) {
          output.push(fromResponse);
        }
      }
      const outputText = output
        .flatMap((item) => (item.type === 'message' && Array.isArray(item['content']) ? (item['content'] as Part[]) : []))
        .flatMap((part) => (part?.type === 'output_text' && typeof part['text'] === 'string' ? [part['text']] : []))
        .join('');
      return { ...response, output, output_text: outputText } as unknown as Response;
    },
  };
}

/**
 * Read a Responses API stream to its end (`openai.responses.stream(...)` or
 * `openai.responses.create({ ..., stream: true })`) and return the complete `Response`, for
 * `host.handleModelResponse`. `onEvent` sees text, reasoning and tool-call events as they arrive.
 * See {@link createOpenAIResponsesStreamAccumulator} for what is checked.
 *
 * @example
 * ```ts
 * const response = await collectOpenAIResponsesStream(openai.responses.stream({ model, input, tools: host.listTools() }));
 * const { toolResults } = await host.handleModelResponse(response);
 * ```
 */
export async function collectOpenAIResponsesStream(
  stream: AsyncIterable<ResponseStreamEvent>,
  options: CollectModelStreamOptions = {},
): Promise<Response> {
  return await collectModelStream(stream, createOpenAIResponsesStreamAccumulator(options), options);
}
