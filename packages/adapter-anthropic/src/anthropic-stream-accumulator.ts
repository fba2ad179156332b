import type { Message, RawContentBlockDelta, RawMessageStreamEvent } from '@anthropic-ai/sdk/resources/messages';
import {
  collectModelStream,
  type CollectModelStreamOptions,
  type ModelStreamAccumulator,
  type ModelStreamEvent,
  type ModelStreamOptions,
} from '@toolhost/contract';
import { checkArgumentsLength, incompleteStream, parseStreamedArguments, resolveMaxArgumentsLength } from './streamed-arguments.js';

type Block = Record<string, unknown> & { type: string };

/** One content block of the message, by its stream `index`. */
interface BlockState {
  /** The block from `content_block_start`, completed by its deltas; undefined until it starts. */
  block?: Block;
  /** Deltas that arrived before the block's `content_block_start`, applied when it comes. */
  readonly early: RawContentBlockDelta[];
  /** The `input` JSON text so far, for blocks that take input (`tool_use`, `server_tool_use`, ...). */
  json?: string;
  /** The `input` of `content_block_start`, used when no JSON follows. */
  startInput: Record<string, unknown>;
  /** The call's number in this stream, for `tool_use` blocks. */
  callIndex?: number;
  stopped: boolean;
}

/**
 * Create an accumulator for one Anthropic Messages stream: push every event that
 * `anthropic.messages.stream(...)` or `anthropic.messages.create({ ..., stream: true })` yields,
 * then `finish()` returns the `Message` the non-streaming API would have returned, ready for
 * `host.handleModelResponse`. Content blocks are keyed by their `index`, so deltas of several
 * blocks may interleave; a `tool_use` block's `input_json_delta` fragments may split the JSON
 * anywhere and are parsed at its `content_block_stop`. Thinking blocks keep their signature, so
 * the assistant turn can be sent back as is.
 *
 * `push` returns `text-delta`, `reasoning-delta` (thinking) and `tool-call-*` events.
 *
 * @throws AdapterError `INVALID_TOOL_ARGUMENTS` (a `tool_use` input that is not a JSON object),
 *   `TOOL_ARGUMENTS_TOO_LARGE` (past `maxArgumentsLength`), `INCOMPLETE_STREAM` (no `message_stop`,
 *   or events out of order), all naming the tool when there is one.
 *
 * @example
 * ```ts
 * const accumulator = createAnthropicStreamAccumulator();
 * for await (const event of anthropic.messages.stream({ model, max_tokens, messages, tools })) {
 *   for (const e of accumulator.push(event)) if (e.type === 'text-delta') process.stdout.write(e.text);
 * }
 * const message = accumulator.finish();
 * ```
 */
export function createAnthropicStreamAccumulator(options?: ModelStreamOptions): ModelStreamAccumulator<RawMessageStreamEvent, Message> {
  const limit = resolveMaxArgumentsLength(options);
  let message: Record<string, unknown> | undefined;
  let stopped = false;
  let finished = false;
  let calls = 0;
  const blocks = new Map<number, BlockState>();

  const stateOf = (index: number): BlockState => {
    let state = blocks.get(index);
    if (!state) {
      state = { early: [], startInput: {}, stopped: false };
      blocks.set(index, state);
    }
    return state;
  };

  const refOf = (block: Block): { toolName: string; callId?: string } => ({
    toolName: typeof block['name'] === 'string' ? block['name'] : block.type,
    callId: typeof block['id'] === 'string' ? block['id'] : undefined,
  });

  const applyDelta = (state: BlockState, block: Block, delta: RawContentBlockDelta, events: ModelStreamEvent[]): void => {
    switch (delta.type) {
      case 'text_delta':
        if (block.type !== 'text') return;
        block['text'] = String(block['text'] ?? '') + delta.text;
        if (delta.text) events.push({ type: 'text-delta', text: delta.text });
        return;
      case 'input_json_delta':
        if (state.json === undefined) return;
        state.json += delta.partial_json;
        checkArgumentsLength(state.json.length, limit, refOf(block));
        if (state.callIndex !== undefined && delta.partial_json) {
          events.push({ type: 'tool-call-delta', index: state.callIndex, argumentsDelta: delta.partial_json });
        }
        return;
      case 'thinking_delta':
        if (block.type !== 'thinking') return;
        block['thinking'] = String(block['thinking'] ?? '') + delta.thinking;
        if (delta.thinking) events.push({ type: 'reasoning-delta', text: delta.thinking });
        return;
      case 'signature_delta':
        if (block.type === 'thinking') block['signature'] = delta.signature;
        return;
      case 'citations_delta': {
        const citations = Array.isArray(block['citations']) ? (block['citations'] as unknown[]) : [];
        block['citations'] = [...citations, delta.citation];
        return;
      }
      default:
        return; // a delta type this adapter does not know: the block keeps what it has
    }
  };

  const stopBlock = (state: BlockState, block: Block, events: ModelStreamEvent[]): void => {
    if (state.stopped) return;
    state.stopped = true;
    if (state.json === undefined) return;
    const input = parseStreamedArguments(state.json, state.startInput, refOf(block));
    block['input'] = input;
    if (state.callIndex !== undefined) {
      events.push({
        type: 'tool-call-end',
        index: state.callIndex,
        call: { id: String(block['id']), name: String(block['name']), arguments: { ...input } },
      });
    }
  };

  return {
    push(event) {
      const events: ModelStreamEvent[] = [];
      if (finished) throw incompleteStream('This Anthropic stream accumulator has already finished; create one per stream.');
      if (event.type === 'message_start') {
        if (message) {
          throw incompleteStream('The Anthropic stream started a second message before the first one stopped; it is not one response.');
        }
        message = { ...event.message, content: [], usage: { ...event.message.usage } };
        event.message.content.forEach((block, index) => {
          blocks.set(index, { block: { ...block } as Block, early: [], startInput: {}, stopped: true });
        });
        return events;
      }
      if (!message) {
        throw incompleteStream(
          `The Anthropic stream sent '${String((event as { type: unknown }).type)}' before message_start; it is not a Messages stream from its start.`,
        );
      }
      if (stopped) return events; // nothing belongs to the message after message_stop
      switch (event.type) {
        case 'content_block_start': {
          const state = stateOf(event.index);
          if (state.block) {
            throw incompleteStream(`The Anthropic stream started content block ${event.index} twice; it is out of order.`);
          }
          const block = { ...event.content_block } as Block;
          state.block = block;
          if ('input' in block) {
            state.json = '';
            if (isRecord(block['input'])) state.startInput = block['input'];
          }
          if (block.type === 'tool_use') {
            state.callIndex = calls++;
            events.push({ type: 'tool-call-start', index: state.callIndex, id: String(block['id']), name: String(block['name']) });
          }
          for (const delta of state.early.splice(0)) applyDelta(state, block, delta, events);
          return events;
        }
        case 'content_block_delta': {
          const state = stateOf(event.index);
          if (state.stopped) return events;
          if (state.block) applyDelta(state, state.block, event.delta, events);
          else state.early.push(event.delta);
          return events;
        }
        case 'content_block_stop': {
          const state = stateOf(event.index);
          if (!state.block) {
            throw incompleteStream(`The Anthropic stream stopped content block ${event.index}, which never started; it is out of order.`);
          }
          stopBlock(state, state.block, events);
          return events;
        }
        case 'message_delta': {
          for (const [key, value] of Object.entries(event.delta)) {
            if (value !== undefined && !(key === 'container' && value === null)) message[key] = value;
          }
          const usage = message['usage'] as Record<string, unknown>;
          for (const [key, value] of Object.entries(event.usage ?? {})) if (value !== null && value !== undefined) usage[key] = value;
          return events;
        }
        case 'message_stop':
          stopped = true;
          return events;
        default:
          return events; // `ping` and event types this adapter does not know
      }
    },

    finish() {
      if (finished) throw incompleteStream('This Anthropic stream accumulator has already finished; create one per stream.');
      finished = true;
      if (!message) {
        throw incompleteStream(
          'The Anthropic stream ended before message_start: nothing arrived (was the request aborted?). Retry the turn.',
        );
      }
      const ordered = [...blocks.entries()].sort(([a], [b]) => a - b);
      if (!stopped) {
        const open = ordered.find(([, state]) => state.block?.type === 'tool_use' && !state.stopped)?.[1].block;
        const which = open ? ` in the middle of the call to tool '${String(open['name'])}'` : '';
        throw incompleteStream(
          `The Anthropic stream ended before message_stop${which} (cut off or aborted), so no tool was called. Retry the turn.`,
          open ? refOf(open) : undefined,
        );
      }
      const content: Block[] = [];
      for (const [index, state] of ordered) {
        if (!state.block) {
          throw incompleteStream(`The Anthropic stream sent deltas for content block ${index}, which never started; it is out of order.`);
        }
        stopBlock(state, state.block, []);
        content.push(state.block);
      }
      return { ...message, content } as unknown as Message;
    },
  };
}

/**
 * Read an Anthropic Messages stream to its end (`anthropic.messages.stream(...)` or
 * `anthropic.messages.create({ ..., stream: true })`) and return the complete `Message`, for
 * `host.handleModelResponse`. `onEvent` sees text, thinking and tool-call events as they arrive.
 * See {@link createAnthropicStreamAccumulator} for what is checked.
 *
 * @example
 * ```ts
 * const stream = anthropic.messages.stream({ model, max_tokens, messages, tools: host.listTools() });
 * const message = await collectAnthropicStream(stream, { onEvent: (e) => e.type === 'text-delta' && print(e.text) });
 * const { toolResults } = await host.handleModelResponse(message);
 * ```
 */
export async function collectAnthropicStream(
  stream: AsyncIterable<RawMessageStreamEvent>,
  options: CollectModelStreamOptions = {},
): Promise<Message> {
  return await collectModelStream(stream, createAnthropicStreamAccumulator(options), options);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
