// Public API of @toolhost/adapter-anthropic. Contract types (ModelAdapter, AdapterError, ...) come from @toolhost/contract.
export { createAnthropicAdapter } from './create-anthropic-adapter.js';
export type { AnthropicAdapter, AnthropicAdapterOptions } from './create-anthropic-adapter.js';
export type { AnthropicSamplingOptions } from './create-anthropic-message.js';
export { ANTHROPIC_TOOL_NAME_POLICY } from './anthropic-tool-name-policy.js';
export { ANTHROPIC_VENDOR_LIMITS } from './anthropic-vendor-limits.js';
export type { AnthropicToolDeclaration, AnthropicToolSearchVariant } from './declare-anthropic-tools.js';
export { mapToolsToAnthropicTools } from './map-tools-to-anthropic-tools.js';
export { mapMessageToToolCalls } from './map-message-to-tool-calls.js';
export { mapOutcomesToToolResultMessage } from './map-outcomes-to-tool-result-message.js';
export { collectAnthropicStream, createAnthropicStreamAccumulator } from './anthropic-stream-accumulator.js';
