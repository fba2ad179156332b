import type { ChatCompletion, ChatCompletionChunk } from 'openai/resources/chat/completions';
import {
  AdapterError,
  collectModelStream,
  type CollectModelStreamOptions,
  type ModelStreamAccumulator,
  type ModelStreamEvent,
  type ModelStreamOptions,
} from '@toolhost/contract';
import { checkArgumentsLength, incompleteStream, parseStreamedArguments, resolveMaxArgumentsLength } from './streamed-arguments.js';

/** One `tool_calls` entry of a choice, by its `index`. */
interface ToolCallState {
  id?: string;
  name: string;
  args: string;
  /** The call's number in this stream (first choice only), once its name is known. */
  callIndex?: number;
  ended: boolean;
}

/** One choice, by its `index`. */
interface ChoiceState {
  content: string | null;
  refusal: string | null;
  readonly toolCalls: Map<number, ToolCallState>;
  lastToolKey?: number;
  finishReason: ChatCompletion.Choice['finish_reason'] | null;
  logContent: unknown[] | null;
  logRefusal: unknown[] | null;
  sawLogprobs: boolean;
}

/**
 * Which `tool_calls` entry a fragment belongs to: its `index`. Some compatible servers leave
 * `index` out; then a new id starts a call and anything else continues the last one.
 */
function keyOf(choice: ChoiceState, fragment: { index?: number; id?: string }): number {
  if (typeof fragment.index === 'number') return fragment.index;
  const last = choice.lastToolKey === undefined ? undefined : choice.toolCalls.get(choice.lastToolKey);
  if (last && choice.lastToolKey !== undefined && (fragment.id === undefined || fragment.id === last.id)) return choice.lastToolKey;
  return choice.toolCalls.size === 0 ? 0 : Math.max(...choice.toolCalls.keys()) + 1;
}

/**
 * Create an accumulator for one Chat Completions stream: push every chunk that
 * `openai.chat.completions.create({ ..., stream: true })` (or `openai.chat.completions.stream(...)`)
 * yields, then `finish()` returns the `ChatCompletion` the non-streaming API would have returned,
 * ready for `host.handleModelResponse`. Tool calls are assembled per choice from
 * `delta.tool_calls[]` by their `index` (so fragments of parallel calls may interleave): the
 * first fragment carries the `id` and the name, later ones append to `function.arguments`, which
 * may be split anywhere. A call's arguments are parsed when its choice's `finish_reason` arrives.
 *
 * `push` returns `text-delta` (content and refusal) and `tool-call-*` events of the first choice.
 *
 * @throws AdapterError `INVALID_TOOL_CALL` (a call without a name), `INVALID_TOOL_ARGUMENTS`
 *   (arguments that are not a JSON object), `TOOL_ARGUMENTS_TOO_LARGE` (past
 *   `maxArgumentsLength`), `INCOMPLETE_STREAM` (a choice without `finish_reason`), naming the tool.
 *
 * @example
 * ```ts
 * const accumulator = createOpenAIChatStreamAccumulator();
 * for await (const chunk of await openai.chat.completions.create({ model, messages, tools, stream: true })) {
 *   for (const e of accumulator.push(chunk)) if (e.type === 'text-delta') process.stdout.write(e.text);
 * }
 * const completion = accumulator.finish();
 * ```
 */
export function createOpenAIChatStreamAccumulator(
  options?: ModelStreamOptions,
): ModelStreamAccumulator<ChatCompletionChunk, ChatCompletion> {
  const limit = resolveMaxArgumentsLength(options);
  let head: Pick<ChatCompletionChunk, 'id' | 'created' | 'model' | 'service_tier' | 'system_fingerprint'> | undefined;
  let usage: ChatCompletionChunk['usage'];
  let calls = 0;
  let finished = false;
  const choices = new Map<number, ChoiceState>();

  const choiceOf = (index: number): ChoiceState => {
    let choice = choices.get(index);
    if (!choice) {
      choice = {
        content: null,
        refusal: null,
        toolCalls: new Map(),
        finishReason: null,
        logContent: null,
        logRefusal: null,
        sawLogprobs: false,
      };
      choices.set(index, choice);
    }
    return choice;
  };

  const refOf = (call: ToolCallState): { toolName: string; callId?: string } => ({
    toolName: call.name || '(no name yet)',
    callId: call.id,
  });

  const endCalls = (choice: ChoiceState, events: ModelStreamEvent[]): void => {
    for (const call of [...choice.toolCalls.entries()].sort(([a], [b]) => a - b).map(([, state]) => state)) {
      if (call.ended) continue;
      if (!call.name) {
        throw new AdapterError({
          code: 'INVALID_TOOL_CALL',
          message: 'The OpenAI stream has a tool call without a function name, so no tool can be called for it. Retry the turn.',
          provider: 'openai',
          callId: call.id,
        });
      }
      const args = parseStreamedArguments(call.args, {}, refOf(call));
      call.ended = true;
      if (call.callIndex !== undefined)
        events.push({ type: 'tool-call-end', index: call.callIndex, call: { id: call.id, name: call.name, arguments: args } });
    }
  };

  return {
    push(chunk) {
      if (finished) throw incompleteStream('This Chat Completions stream accumulator has already finished; create one per stream.');
      const events: ModelStreamEvent[] = [];
      head = {
        id: chunk.id ?? head?.id,
        created: chunk.created ?? head?.created,
        model: chunk.model ?? head?.model,
        service_tier: chunk.service_tier ?? head?.service_tier,
        system_fingerprint: chunk.system_fingerprint ?? head?.system_fingerprint,
      };
      if (chunk.usage) usage = chunk.usage;
      for (const delta of chunk.choices ?? []) {
        const choice = choiceOf(delta.index ?? 0);
        const first = (delta.index ?? 0) === 0;
        const { content, refusal, tool_calls: toolCalls } = delta.delta ?? {};
        if (typeof content === 'string' && content) {
          choice.content = (choice.content ?? '') + content;
          if (first) events.push({ type: 'text-delta', text: content });
        }
        if (typeof refusal === 'string' && refusal) {
          choice.refusal = (choice.refusal ?? '') + refusal;
          if (first) events.push({ type: 'text-delta', text: refusal });
        }
        for (const fragment of toolCalls ?? []) {
          const callKey = keyOf(choice, fragment);
          choice.lastToolKey = callKey;
          let call = choice.toolCalls.get(callKey);
          if (!call) {
            call = { name: '', args: '', ended: false };
            choice.toolCalls.set(callKey, call);
          }
          if (call.ended) {
            throw incompleteStream(
              `The OpenAI stream sent more of tool call ${callKey} ('${call.name}') after its choice finished; it is out of order.`,
              refOf(call),
            );
          }
          if (fragment.id && !call.id) call.id = fragment.id;
          if (fragment.function?.name) call.name = fragment.function.name;
          const piece = fragment.function?.arguments ?? '';
          if (piece) {
            call.args += piece;
            checkArgumentsLength(call.args.length, limit, refOf(call));
          }
          if (first && call.callIndex === undefined && call.name) {
            call.callIndex = calls++;
            events.push({ type: 'tool-call-start', index: call.callIndex, ...(call.id ? { id: call.id } : {}), name: call.name });
            if (call.args) events.push({ type: 'tool-call-delta', index: call.callIndex, argumentsDelta: call.args });
          } else if (first && call.callIndex !== undefined && piece) {
            events.push({ type: 'tool-call-delta', index: call.callIndex, argumentsDelta: piece });
          }
        }
        if (delta.logprobs) {
          choice.sawLogprobs = true;
          if (delta.logprobs.content) choice.logContent = [...(choice.logContent ?? []), ...delta.logprobs.content];
          if (delta.logprobs.refusal) choice.logRefusal = [...(choice.logRefusal ?? []), ...delta.logprobs.refusal];
        }
        if (delta.finish_reason) {
          choice.finishReason = delta.finish_reason;
          endCalls(choice, first ? events : []);
        }
      }
      return events;
    },

    finish() {
      if (finished) throw incompleteStream('This Chat Completions stream accumulator has already finished; create one per stream.');
      finished = true;
      if (!head || choices.size === 0) {
        throw incompleteStream('The Chat Completions stream ended without any choice (cut off or aborted?). Retry the turn.');
      }
      const ordered = [...choices.entries()].sort(([a], [b]) => a - b);
      for (const [, choice] of ordered) {
        if (choice.finishReason) continue;
        const open = [...choice.toolCalls.values()].find((call) => !call.ended);
        const which = open ? ` in the middle of the call to tool '${open.name}'` : '';
        throw incompleteStream(
          `The Chat Completions stream ended before finish_reason${which} (cut off or aborted), so no tool was called. Retry the turn.`,
          open ? refOf(open) : undefined,
        );
      }
      return {
        id: head.id,
        object: 'chat.completion',
        created: head.created,
        model: head.model,
        ...(head.service_tier !== undefined ? { service_tier: head.service_tier } : {}),
        ...(head.system_fingerprint !== undefined ? { system_fingerprint: head.system_fingerprint } : {}),
        ...(usage ? { usage } : {}),
        choices: ordered.map(([index, choice]) => {
          const toolCalls = [...choice.toolCalls.entries()]
            .sort(([a], [b]) => a - b)
            .map(([key, call]) => ({
              id: call.id ?? `call_${index}_${key}`,
              type: 'function' as const,
              function: { name: call.name, arguments: call.args },
            }));
          return {
            index,
            finish_reason: choice.finishReason!,
            logprobs: choice.sawLogprobs ? { content: choice.logContent, refusal: choice.logRefusal } : null,
            message: {
              role: 'assistant' as const,
              content: choice.content,
              refusal: choice.refusal,
              ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
            },
          };
        }),
      } as ChatCompletion;
    },
  };
}

/**
 * Read a Chat Completions stream to its end (`openai.chat.completions.create({ ..., stream: true })`
 * or `openai.chat.completions.stream(...)`) and return the complete `ChatCompletion`, for
 * `host.handleModelResponse`. `onEvent` sees text and tool-call events as they arrive. See
 * {@link createOpenAIChatStreamAccumulator} for what is checked.
 *
 * @example
 * ```ts
 * const stream = await openai.chat.completions.create({ model, messages, tools: host.listTools(), stream: true });
 * const completion = await collectOpenAIChatStream(stream, { onEvent: (e) => e.type === 'text-delta' && print(e.text) });
 * const { toolResults } = await host.handleModelResponse(completion);
 * ```
 */
export async function collectOpenAIChatStream(
  stream: AsyncIterable<ChatCompletionChunk>,
  options: CollectModelStreamOptions = {},
): Promise<ChatCompletion> {
  return await collectModelStream(stream, createOpenAIChatStreamAccumulator(options), options);
}
