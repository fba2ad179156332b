import type { ContentBlock, Message, MessageParam, Tool } from '@anthropic-ai/sdk/resources/messages';
import type { ModelAdapter } from '@toolhost/host';
import { createToolNameMap, type ToolNameMap, type ToolNameMapOptions } from '@toolhost/schema-sanitizer';
import { createAnthropicMessage, type AnthropicSamplingOptions } from './create-anthropic-message.js';
import { mapMessageToToolCalls } from './map-message-to-tool-calls.js';
import { mapOutcomesToToolResultMessage } from './map-outcomes-to-tool-result-message.js';
import { mapToolsToAnthropicTools } from './map-tools-to-anthropic-tools.js';

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
  const nameOptions: ToolNameMapOptions = { normalize: (name) => name.replace(/[^a-zA-Z0-9_-]/g, '_'), maxLength: 64 };
  let names: ToolNameMap = createToolNameMap([], nameOptions);
  const adapter: AnthropicAdapter = {
    specificationVersion: 'v1',
    provider: 'anthropic',
    schemaProfile: 'anthropic',
    toTools(tools) {
      names = createToolNameMap(tools.map((tool) => tool.name), nameOptions);
      return mapToolsToAnthropicTools(tools.map((tool, index) => ({ ...tool, name: names.vendorNames[index] ?? tool.name })));
    },
    getToolCalls: (response) => mapMessageToToolCalls(response).map((call) => ({ ...call, name: names.toHost(call.name) })),
    toToolResults: (outcomes) => mapOutcomesToToolResultMessage(outcomes),
  };
  if (sampling) {
    adapter.createMessage = (request, callOptions) => createAnthropicMessage(request, { sampling, signal: callOptions.signal });
  }
  return adapter;
}
