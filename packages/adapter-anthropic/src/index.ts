// Public API of @toolhost/adapter-anthropic.
export { createAnthropicAdapter } from './create-anthropic-adapter.js';
export type { AnthropicAdapter, AnthropicAdapterOptions } from './create-anthropic-adapter.js';
export type { AnthropicSamplingOptions } from './create-anthropic-message.js';
export { AnthropicAdapterError } from './anthropic-adapter-error.js';
export type { AnthropicAdapterErrorCode, AnthropicAdapterErrorOptions } from './anthropic-adapter-error.js';
export { mapToolsToAnthropicTools } from './map-tools-to-anthropic-tools.js';
export { mapMessageToToolCalls } from './map-message-to-tool-calls.js';
export { mapOutcomesToToolResultMessage } from './map-outcomes-to-tool-result-message.js';
