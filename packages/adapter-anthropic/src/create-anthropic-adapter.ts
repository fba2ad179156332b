import type { ContentBlock, Message, MessageParam, RawMessageStreamEvent, Tool } from '@anthropic-ai/sdk/resources/messages';
import {
  AdapterError,
  resolveContextWindowTokens,
  resolveVendorLimits,
  vendorLimitChecks,
  type ModelAdapter,
  type StreamingModelAdapter,
  type VendorLimits,
} from '@toolhost/contract';
import { collectAnthropicStream, createAnthropicStreamAccumulator } from './anthropic-stream-accumulator.js';
import { ANTHROPIC_TOOL_NAME_POLICY } from './anthropic-tool-name-policy.js';
import { ANTHROPIC_VENDOR_LIMITS } from './anthropic-vendor-limits.js';
import { createAnthropicMessage, type AnthropicSamplingOptions } from './create-anthropic-message.js';
import { declareAnthropicTools, type AnthropicToolDeclaration, type AnthropicToolSearchVariant } from './declare-anthropic-tools.js';
import { mapMessageToToolCalls } from './map-message-to-tool-calls.js';
import { mapOutcomesToToolResultMessage } from './map-outcomes-to-tool-result-message.js';

/** Options of {@link createAnthropicAdapter}. Every field is optional. */
export interface AnthropicAdapterOptions {
  /** Answer MCP sampling requests with this client and model; without it the host declines sampling. */
  sampling?: AnthropicSamplingOptions;
  /**
   * `'native'`: the adapter takes tools the host defers (`deferLoading`) and declares them with
   * Anthropic's `defer_loading: true` plus Anthropic's tool search tool, so Claude searches them
   * and loads the ones it needs on Anthropic's side (`nativeToolSearch` is then true). The model
   * must support tool search (Claude Sonnet 4.5, Opus 4.5, Haiku 4.5 and later). `'off'`: deferred
   * tools are refused; the host's own tool search is the way to defer.
   * @default 'off'
   */
  toolSearch?: 'native' | 'off';
  /**
   * Which of Anthropic's tool search tools `toolSearch: 'native'` adds: `'bm25'`
   * (`tool_search_tool_bm25_20251119`, natural-language queries) or `'regex'`
   * (`tool_search_tool_regex_20251119`, Claude writes regular expressions).
   * @default 'bm25'
   */
  toolSearchTool?: AnthropicToolSearchVariant;
  /**
   * Limits to check instead of {@link ANTHROPIC_VENDOR_LIMITS}, field by field (a gateway in
   * front of Anthropic may have others); a field set to `undefined` lifts that limit.
   */
  limits?: VendorLimits;
  /** The context window of the Claude model you use, in tokens; surfaced as `adapter.contextWindowTokens` for the host's tool search. */
  contextWindowTokens?: number;
}

/**
 * The Anthropic `ModelAdapter`: `tools` in, `tool_use` blocks out, a `user` message of
 * `tool_result` blocks back; and streams (`messages.stream`, `messages.create({ stream: true })`)
 * assembled into a `Message`. Its declarations are `Tool`s, and with `toolSearch: 'native'` also
 * Anthropic's tool search tool (`AnthropicAdapter<AnthropicToolDeclaration>`).
 *
 * @typeParam TTool - what `toTools` returns.
 */
export type AnthropicAdapter<TTool extends AnthropicToolDeclaration = Tool> = ModelAdapter<
  TTool,
  Message | readonly ContentBlock[],
  MessageParam
> &
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
 * `toTools` never returns declarations Anthropic rejects for its limits
 * ({@link ANTHROPIC_VENDOR_LIMITS}, `adapter.limits`): over one it throws `AdapterError`
 * `VENDOR_LIMIT_EXCEEDED`. With `toolSearch: 'native'`, deferred tools get `defer_loading: true`
 * and Anthropic's tool search tool is added; the `server_tool_use` and `tool_search_tool_result`
 * blocks of its searches stay in the message (send `content` back as it is) and are never taken
 * for calls of host tools.
 *
 * @example
 * ```ts
 * const host = await McpToolHost.create({ adapter: createAnthropicAdapter(), ui });
 * const message = await anthropic.messages.create({ model, max_tokens, messages, tools: host.listTools() });
 * ```
 */
export function createAnthropicAdapter(
  options: AnthropicAdapterOptions & { toolSearch: 'native' },
): AnthropicAdapter<AnthropicToolDeclaration>;
export function createAnthropicAdapter(options?: AnthropicAdapterOptions & { toolSearch?: 'off' }): AnthropicAdapter;
export function createAnthropicAdapter(options?: AnthropicAdapterOptions): AnthropicAdapter<AnthropicToolDeclaration>;
export function createAnthropicAdapter(options: AnthropicAdapterOptions = {}): AnthropicAdapter<AnthropicToolDeclaration> {
  const { sampling } = options;
  const toolSearch = oneOf('toolSearch', options.toolSearch ?? 'off', ['native', 'off'] as const);
  const toolSearchVariant = oneOf('toolSearchTool', options.toolSearchTool ?? 'bm25', ['bm25', 'regex'] as const);
  const limits = resolveVendorLimits('anthropic', ANTHROPIC_VENDOR_LIMITS, options.limits);
  const contextWindowTokens = resolveContextWindowTokens('anthropic', options.contextWindowTokens);
  const nativeToolSearch = toolSearch === 'native';
  const checks = vendorLimitChecks({
    provider: 'anthropic',
    vendor: 'Anthropic',
    limits,
    toolNames: ANTHROPIC_TOOL_NAME_POLICY,
    nativeToolSearch,
  });
  const adapter: AnthropicAdapter<AnthropicToolDeclaration> = {
    specificationVersion: 'v1',
    provider: 'anthropic',
    schemaProfile: 'anthropic',
    toolNames: ANTHROPIC_TOOL_NAME_POLICY,
    limits,
    nativeToolSearch,
    ...(contextWindowTokens !== undefined ? { contextWindowTokens } : {}),
    toTools: (tools) => declareAnthropicTools(tools, { checks, toolSearchVariant }),
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

/** An option that must be one of `allowed` (a JavaScript caller may pass anything). */
function oneOf<const T extends string>(name: string, value: string, allowed: readonly T[]): T {
  if ((allowed as readonly string[]).includes(value)) return value as T;
  throw new AdapterError({
    code: 'INVALID_OPTIONS',
    message: `${name} must be ${allowed.map((item) => `'${item}'`).join(' or ')}; got ${JSON.stringify(value)}.`,
    provider: 'anthropic',
  });
}
