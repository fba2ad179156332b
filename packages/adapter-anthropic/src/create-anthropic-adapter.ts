import type { ContentBlock, Message, MessageParam, RawMessageStreamEvent, Tool } from '@anthropic-ai/sdk/resources/messages';
import type { ModelAdapter, StreamingModelAdapter } from '@toolhost/contract';
import { collectAnthropicStream, createAnthropicStreamAccumulator } from './anthropic-stream-accumulator.js';
import { ANTHROPIC_TOOL_NAME_POLICY } from './anthropic-tool-name-policy.js';
import { createAnthropicMessage, type AnthropicSamplingOptions } from './create-anthropic-message.js';
import { mapMessageToToolCalls } from './map-message-to-tool-calls.js';
import { mapOutcomesToToolResultMessage } from './map-outcomes-to-tool-result-message.js';
import { mapToolsToAnthropicTools } from './map-tools-to-anthropic-tools.js';

/** Options of {@link createAnthropicAdapter}. Every field is optional. */
export interface AnthropicAdapterOptions {
  /** Answer MCP sampling requests with this client and model; without it the host declines sampling. */
  sampling?: AnthropicSamplingOptions;
}

/**
 * The Anthropic `ModelAdapter`: `tools` in, `tool_use` blocks out, a `user` message of
 * `tool_result` blocks back; and streams (`messages.stream`, `messages.create({ stream: true })`)
 * assembled into a `Message`.
 */
export type AnthropicAdapter = ModelAdapter<Tool, Message | readonly ContentBlock[], MessageParam> &
  StreamingModelAdapter<RawMessageStreamEvent, Message>;

/**
 * Create the adapter that lets McpToolHost work with `@anthropic-ai/sdk` Messages.
 *
 * The adapter is stateless, so one instance can serve any number of hosts: tool names are
 * declared as given (the host names every tool under {@link ANTHROPIC_TOOL_NAME_POLICY}, the
 * adapter's `toolNames`) and the names of the model's `tool_use` blocks are returned as they are.
 * `collectStream` reads a Messages stream into the `Message` `getToolCalls` takes (see
 * {@link createAnthropicStreamAccumulator}).
 *
 * @example
 * ```ts
 * const host = await McpToolHost.create({ adapter: createAnthropicAdapter(), ui });
 * const message = await anthropic.messages.create({ model, max_tokens, messages, tools: host.listTools() });
 * ```
 */
export function createAnthropicAdapter(options: AnthropicAdapterOptions = {}): AnthropicAdapter {
  const { sampling } = options;
  const adapter: AnthropicAdapter = {
    specificationVersion: 'v1',
    provider: 'anthropic',
    schemaProfile: 'anthropic',
    toolNames: ANTHROPIC_TOOL_NAME_POLICY,
    toTools: (tools) => mapToolsToAnthropicTools(tools),
    getToolCalls: (response) => mapMessageToToolCalls(response),
    toToolResults: (outcomes) => mapOutcomesToToolResultMessage(outcomes),
    createStreamAccumulator: (streamOptions) => createAnthropicStreamAccumulator(streamOptions),
    collectStream: (stream, streamOptions) => collectAnthropicStream(stream, streamOptions),
  };
  if (sampling) {
    adapter.createMessage = (request, callOptions) => createAnthropicMessage(request, { sampling, signal: callOptions.signal });
  }
  return adapter;
}
