import type {
  FunctionTool,
  Response,
  ResponseInputItem,
  ResponseOutputItem,
  ResponseStreamEvent,
} from 'openai/resources/responses/responses';
import { AdapterError, type ModelAdapter, type StreamingModelAdapter } from '@toolhost/contract';
import type { OpenAIAdapterOptions } from './create-openai-chat-adapter.js';
import { createResponsesMessage } from './create-responses-message.js';
import { declareResponseTools, type OpenAIResponsesToolDeclaration } from './declare-response-tools.js';
import { mapOutcomesToResponseItems } from './map-outcomes-to-response-items.js';
import { mapResponseToToolCalls } from './map-response-to-tool-calls.js';
import { openAILimitSetup } from './openai-limit-checks.js';
import { OPENAI_TOOL_NAME_POLICY } from './openai-tool-name-policy.js';
import { collectOpenAIResponsesStream, createOpenAIResponsesStreamAccumulator } from './responses-stream-accumulator.js';
import { stripStrictNullsFromCalls } from './strip-strict-nulls.js';

/** Options of {@link createOpenAIResponsesAdapter}: those of both OpenAI adapters, and tool search. */
export interface OpenAIResponsesAdapterOptions extends OpenAIAdapterOptions {
  /**
   * `'native'`: the adapter takes tools the host defers (`deferLoading`) and declares them with
   * OpenAI's `defer_loading: true`, one namespace per server, plus the hosted `tool_search` tool,
   * so the model searches them and loads the ones it needs on OpenAI's side (`nativeToolSearch` is
   * then true). Only gpt-5.4 and later models support it. `'off'`: deferred tools are refused;
   * the host's own tool search is the way to defer.
   * @default 'off'
   */
  toolSearch?: 'native' | 'off';
}

/**
 * The Responses API `ModelAdapter`: function tools in, `function_call` items out,
 * `function_call_output` items back; and streams (`responses.stream`, `responses.create({ stream: true })`)
 * assembled into a `Response`. Its declarations are `FunctionTool`s, and with `toolSearch: 'native'`
 * also namespaces and the `tool_search` tool (`OpenAIResponsesAdapter<OpenAIResponsesToolDeclaration>`).
 *
 * @typeParam TTool - what `toTools` returns.
 */
export type OpenAIResponsesAdapter<TTool extends OpenAIResponsesToolDeclaration = FunctionTool> = ModelAdapter<
  TTool,
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
 * `toTools` never returns declarations OpenAI rejects for its limits (`adapter.limits`: at most
 * 128 entries in `tools`, strict mode's schema limits): over one it throws `AdapterError`
 * `VENDOR_LIMIT_EXCEEDED`. With `toolSearch: 'native'`, deferred tools go into namespaces with
 * `defer_loading: true` and the `tool_search` tool is added; the `tool_search_call` and
 * `tool_search_output` items of the response stay in `output` (send them back as they are) and
 * are never taken for calls of host tools.
 *
 * @example
 * ```ts
 * const host = await McpToolHost.create({ adapter: createOpenAIResponsesAdapter(), ui });
 * const response = await openai.responses.create({ model, input, tools: host.listTools() });
 * ```
 */
export function createOpenAIResponsesAdapter(
  options: OpenAIResponsesAdapterOptions & { toolSearch: 'native' },
): OpenAIResponsesAdapter<OpenAIResponsesToolDeclaration>;
export function createOpenAIResponsesAdapter(options?: OpenAIResponsesAdapterOptions & { toolSearch?: 'off' }): OpenAIResponsesAdapter;
export function createOpenAIResponsesAdapter(
  options?: OpenAIResponsesAdapterOptions,
): OpenAIResponsesAdapter<OpenAIResponsesToolDeclaration>;
export function createOpenAIResponsesAdapter(
  options: OpenAIResponsesAdapterOptions = {},
): OpenAIResponsesAdapter<OpenAIResponsesToolDeclaration> {
  const strict = options.strict ?? true;
  const { sampling } = options;
  const toolSearch = options.toolSearch ?? 'off';
  if (toolSearch !== 'native' && toolSearch !== 'off') {
    throw new AdapterError({
      code: 'INVALID_OPTIONS',
      message: `toolSearch must be 'native' or 'off'; got ${JSON.stringify(toolSearch)}.`,
      provider: 'openai',
    });
  }
  const nativeToolSearch = toolSearch === 'native';
  const { limits, contextWindowTokens, checks } = openAILimitSetup({ ...options, strict, nativeToolSearch });
  const adapter: OpenAIResponsesAdapter<OpenAIResponsesToolDeclaration> = {
    specificationVersion: 'v1',
    provider: 'openai',
    schemaProfile: strict ? 'openai-strict' : 'none',
    toolNames: OPENAI_TOOL_NAME_POLICY,
    limits,
    nativeToolSearch,
    ...(contextWindowTokens !== undefined ? { contextWindowTokens } : {}),
    toTools: (tools) => declareResponseTools(tools, { checks, strict }),
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
