import type { ContentBlock, Message, MessageParam, Tool } from '@anthropic-ai/sdk/resources/messages';
import type { ModelAdapter } from '@toolhost/host';
import { createAnthropicMessage, type AnthropicSamplingOptions } from './create-anthropic-message.js';
import { mapMessageToToolCalls } from './map-message-to-tool-calls.js';
import { mapOutcomesToToolResultMessage } from './map-outcomes-to-tool-result-message.js';
import { mapToolsToAnthropicTools } from './map-tools-to-anthropic-tools.js';
import { ToolNameMap } from './tool-name-map.js';

/** Options of {@link createAnthropicAdapter}. Every field is optional. */
export interface AnthropicAdapterOptions {
  /** Answer MCP sampling requests with this client and model; without it the host declines sampling. */
  sampling?: AnthropicSamplingOptions;
}

/** The Anthropic `ModelAdapter`: `tools` in, `tool_use` blocks out, a `user` message of `tool_result` blocks back. */
export type AnthropicAdapter = ModelAdapter<Tool, Message | readonly ContentBlock[], MessageParam>;

/**
 * Create the adapter that lets McpToolHost work with `@anthropic-ai/sdk` Messages.
 *
 * @example
 * ```ts
 * const host = await McpToolHost.create({ adapter: createAnthropicAdapter(), ui });
 * const message = await anthropic.messages.create({ model, max_tokens, messages, tools: host.listTools() });
 * ```
 */
export function createAnthropicAdapter(options: AnthropicAdapterOptions = {}): AnthropicAdapter {
  const { sampling } = options;
  // Anthropic tool names are `^[a-zA-Z0-9_-]{1,64}$`; the host's may contain dots.
  const names = new ToolNameMap({ normalize: (name) => name.replace(/[^a-zA-Z0-9_-]/g, '_'), maxLength: 64 });
  const adapter: AnthropicAdapter = {
    specificationVersion: 'v1',
    provider: 'anthropic',
    schemaProfile: 'anthropic',
    toTools(tools) {
      const vendorNames = names.assign(tools.map((tool) => tool.name));
      return mapToolsToAnthropicTools(tools.map((tool, index) => ({ ...tool, name: vendorNames[index] ?? tool.name })));
    },
    getToolCalls: (response) => mapMessageToToolCalls(response).map((call) => ({ ...call, name: names.toHost(call.name) })),
    toToolResults: (outcomes) => mapOutcomesToToolResultMessage(outcomes),
  };
  if (sampling) {
    adapter.createMessage = (request, callOptions) => createAnthropicMessage(request, { sampling, signal: callOptions.signal });
  }
  return adapter;
}
