import type { FunctionTool, Response, ResponseInputItem, ResponseOutputItem } from 'openai/resources/responses/responses';
import type { ModelAdapter } from '@toolhost/host';
import type { OpenAIAdapterOptions } from './create-openai-chat-adapter.js';
import { createResponsesMessage } from './create-responses-message.js';
import { mapOutcomesToResponseItems } from './map-outcomes-to-response-items.js';
import { mapResponseToToolCalls } from './map-response-to-tool-calls.js';
import { mapToolsToResponseTools } from './map-tools-to-response-tools.js';
import { ToolCallRegistry } from './tool-call-registry.js';

/** The Responses API `ModelAdapter`: function tools in, `function_call` items out, `function_call_output` items back. */
export type OpenAIResponsesAdapter = ModelAdapter<
  FunctionTool,
  Response | readonly ResponseOutputItem[],
  ResponseInputItem.FunctionCallOutput[]
>;

/**
 * Create the adapter for the OpenAI Responses API. `toToolResults` returns one
 * `function_call_output` item per call; images and PDFs travel inside it as `input_image`
 * and `input_file` items.
 *
 * @example
 * ```ts
 * const host = await McpToolHost.create({ adapter: createOpenAIResponsesAdapter(), ui });
 * const response = await openai.responses.create({ model, input, tools: host.listTools() });
 * ```
 */
export function createOpenAIResponsesAdapter(options: OpenAIAdapterOptions = {}): OpenAIResponsesAdapter {
  const strict = options.strict ?? true;
  const registry = new ToolCallRegistry(strict);
  const { sampling } = options;
  const adapter: OpenAIResponsesAdapter = {
    specificationVersion: 'v1',
    provider: 'openai',
    schemaProfile: strict ? 'openai-strict' : 'none',
    toTools(tools) {
      return mapToolsToResponseTools(registry.declare(tools), { strict });
    },
    getToolCalls: (response) =>
      mapResponseToToolCalls(response).map((call) => registry.resolve(call)),
    toToolResults: (outcomes) => mapOutcomesToResponseItems(outcomes),
  };
  if (sampling) {
    adapter.createMessage = (request, callOptions) => createResponsesMessage(request, { sampling, signal: callOptions.signal });
  }
  return adapter;
}
