import type {
  FunctionTool,
  Response,
  ResponseInputItem,
  ResponseOutputItem,
  ResponseStreamEvent,
} from 'openai/resources/responses/responses';
import type { ModelAdapter, StreamingModelAdapter } from '@toolhost/contract';
import type { OpenAIAdapterOptions } from './create-openai-chat-adapter.js';
import { createResponsesMessage } from './create-responses-message.js';
import { mapOutcomesToResponseItems } from './map-outcomes-to-response-items.js';
import { mapResponseToToolCalls } from './map-response-to-tool-calls.js';
import { mapToolsToResponseTools } from './map-tools-to-response-tools.js';
import { OPENAI_TOOL_NAME_POLICY } from './openai-tool-name-policy.js';
import { collectOpenAIResponsesStream, createOpenAIResponsesStreamAccumulator } from './responses-stream-accumulator.js';
import { stripStrictNullsFromCalls } from './strip-strict-nulls.js';

/**
 * The Responses API `ModelAdapter`: function tools in, `function_call` items out,
 * `function_call_output` items back; and streams (`responses.stream`, `responses.create({ stream: true })`)
 * assembled into a `Response`.
 */
export type OpenAIResponsesAdapter = ModelAdapter<
  FunctionTool,
  Response | readonly ResponseOutputItem[],
  ResponseInputItem.FunctionCallOutput[]
> &
  StreamingModelAdapter<ResponseStreamEvent, Response>;

/**
 * Create the adapter for the OpenAI Responses API. `toToolResults` returns one
 * `function_call_output` item per call; images and PDFs travel inside it as `input_image`
 * and `input_file` items.
 *
 * The adapter is stateless, so one instance can serve any number of hosts: tool names are
 * declared as given (the host names every tool under {@link OPENAI_TOOL_NAME_POLICY}, the
 * adapter's `toolNames`), the model's names are returned as they are, and in strict mode the
 * called tool's schema is read from the `context` of `getToolCalls`. `collectStream` reads a
 * stream into the `Response` `getToolCalls` takes (see {@link createOpenAIResponsesStreamAccumulator}).
 *
 * @example
 * ```ts
 * const host = await McpToolHost.create({ adapter: createOpenAIResponsesAdapter(), ui });
 * const response = await openai.responses.create({ model, input, tools: host.listTools() });
 * ```
 */
export function createOpenAIResponsesAdapter(options: OpenAIAdapterOptions = {}): OpenAIResponsesAdapter {
  const strict = options.strict ?? true;
  const { sampling } = options;
  const adapter: OpenAIResponsesAdapter = {
    specificationVersion: 'v1',
    provider: 'openai',
    schemaProfile: strict ? 'openai-strict' : 'none',
    toolNames: OPENAI_TOOL_NAME_POLICY,
    toTools: (tools) => mapToolsToResponseTools(tools, { strict }),
    getToolCalls(response, context) {
      const calls = mapResponseToToolCalls(response);
      return strict ? stripStrictNullsFromCalls(calls, context) : calls;
    },
    toToolResults: (outcomes) => mapOutcomesToResponseItems(outcomes),
    createStreamAccumulator: (streamOptions) => createOpenAIResponsesStreamAccumulator(streamOptions),
    collectStream: (stream, streamOptions) => collectOpenAIResponsesStream(stream, streamOptions),
  };
  if (sampling) {
    adapter.createMessage = (request, callOptions) => createResponsesMessage(request, { sampling, signal: callOptions.signal });
  }
  return adapter;
}
