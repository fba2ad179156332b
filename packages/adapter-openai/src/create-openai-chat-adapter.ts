import type {
  ChatCompletion,
  ChatCompletionChunk,
  ChatCompletionFunctionTool,
  ChatCompletionMessage,
  ChatCompletionMessageParam,
} from 'openai/resources/chat/completions';
import type { ModelAdapter, StreamingModelAdapter, VendorLimits } from '@toolhost/contract';
import { collectOpenAIChatStream, createOpenAIChatStreamAccumulator } from './chat-stream-accumulator.js';
import { createChatMessage } from './create-chat-message.js';
import { mapChatCompletionToToolCalls } from './map-chat-completion-to-tool-calls.js';
import { mapOutcomesToChatMessages } from './map-outcomes-to-chat-messages.js';
import { mapToolsToChatTools } from './map-tools-to-chat-tools.js';
import { openAILimitSetup } from './openai-limit-checks.js';
import type { OpenAISamplingOptions } from './openai-sampling-options.js';
import { OPENAI_TOOL_NAME_POLICY } from './openai-tool-name-policy.js';
import { stripStrictNullsFromCalls } from './strip-strict-nulls.js';

/** Options of {@link createOpenAIChatAdapter} and {@link createOpenAIResponsesAdapter}. */
export interface OpenAIAdapterOptions {
  /**
   * Declare tools with `strict: true` and schemas from the `openai-strict` sanitizer profile, so
   * the API guarantees arguments that match the schema. The `null`s strict mode makes the model
   * send for optional properties are removed before the MCP server sees the arguments (using
   * the tool's input schema from the `ToolCallContext` the host passes to `getToolCalls`).
   * Turn off for schemas strict mode cannot express; they then go through profile `none`.
   * @default true
   */
  strict?: boolean;
  /** Answer MCP sampling requests with this client and model; without it the host declines sampling. */
  sampling?: OpenAISamplingOptions;
  /**
   * Limits to check instead of {@link OPENAI_VENDOR_LIMITS} (and, in strict mode,
   * {@link OPENAI_STRICT_SCHEMA_LIMITS}), field by field: an OpenAI-compatible server or an Azure
   * deployment may have others (`{ maxDescriptionLength: 1024 }`); a field set to `undefined` lifts
   * that limit.
   */
  limits?: VendorLimits;
  /** The context window of the model you use, in tokens; surfaced as `adapter.contextWindowTokens` for the host's tool search. */
  contextWindowTokens?: number;
}

/**
 * The Chat Completions `ModelAdapter`: `tools` entries in, `tool_calls` out, `tool` (+ `user`)
 * messages back; and streams (`chat.completions.create({ stream: true })`) assembled into a `ChatCompletion`.
 */
export type OpenAIChatAdapter = ModelAdapter<
  ChatCompletionFunctionTool,
  ChatCompletion | ChatCompletionMessage,
  ChatCompletionMessageParam[]
> &
  StreamingModelAdapter<ChatCompletionChunk, ChatCompletion>;

/**
 * Create the adapter for OpenAI Chat Completions. `toToolResults` returns the messages to
 * append after the assistant message: one `tool` message per call and, when results carry
 * images, audio or PDFs, one `user` message with them (tool messages can only hold text).
 *
 * The adapter is stateless, so one instance can serve any number of hosts: tool names are
 * declared as given (the host names every tool under {@link OPENAI_TOOL_NAME_POLICY}, the
 * adapter's `toolNames`), the model's names are returned as they are, and in strict mode the
 * called tool's schema is read from the `context` of `getToolCalls`. `collectStream` reads a
 * stream into the `ChatCompletion` `getToolCalls` takes (see {@link createOpenAIChatStreamAccumulator}).
 *
 * `toTools` never returns declarations OpenAI rejects for its limits (`adapter.limits`: at most
 * 128 tools, strict mode's schema limits): over one it throws `AdapterError`
 * `VENDOR_LIMIT_EXCEEDED`. Chat Completions has no native tool search, so deferred tools are refused.
 *
 * @example
 * ```ts
 * const host = await McpToolHost.create({ adapter: createOpenAIChatAdapter(), ui });
 * const completion = await openai.chat.completions.create({ model, messages, tools: host.listTools() });
 * ```
 */
export function createOpenAIChatAdapter(options: OpenAIAdapterOptions = {}): OpenAIChatAdapter {
  const strict = options.strict ?? true;
  const { sampling } = options;
  const { limits, contextWindowTokens, checks } = openAILimitSetup({ ...options, strict, nativeToolSearch: false });
  const adapter: OpenAIChatAdapter = {
    specificationVersion: 'v1',
    provider: 'openai',
    schemaProfile: strict ? 'openai-strict' : 'none',
    toolNames: OPENAI_TOOL_NAME_POLICY,
    limits,
    nativeToolSearch: false,
    ...(contextWindowTokens !== undefined ? { contextWindowTokens } : {}),
    toTools(tools) {
      const declared = mapToolsToChatTools(checks.prepareTools(tools), { strict });
      checks.checkToolCount(declared.length);
      checks.checkDeclarations(
        declared.map((declaration) => ({ name: declaration.function.name, declaration, schema: declaration.function.parameters })),
      );
      return declared;
    },
    getToolCalls(response, context) {
      const calls = mapChatCompletionToToolCalls(response);
      return strict ? stripStrictNullsFromCalls(calls, context) : calls;
    },
    toToolResults: (outcomes) => mapOutcomesToChatMessages(outcomes),
    createStreamAccumulator: (streamOptions) => createOpenAIChatStreamAccumulator(streamOptions),
    collectStream: (stream, streamOptions) => collectOpenAIChatStream(stream, streamOptions),
  };
  if (sampling) {
    adapter.createMessage = (request, callOptions) => createChatMessage(request, { sampling, signal: callOptions.signal });
  }
  return adapter;
}
