// Public API of @toolhost/adapter-openai. Contract types (ModelAdapter, AdapterError, ...) come from @toolhost/contract.
export { createOpenAIChatAdapter } from './create-openai-chat-adapter.js';
export type { OpenAIAdapterOptions, OpenAIChatAdapter } from './create-openai-chat-adapter.js';
export { createOpenAIResponsesAdapter } from './create-openai-responses-adapter.js';
export type { OpenAIResponsesAdapter, OpenAIResponsesAdapterOptions } from './create-openai-responses-adapter.js';
export type { OpenAIResponsesToolDeclaration } from './declare-response-tools.js';
export { OPENAI_STRICT_SCHEMA_LIMITS, OPENAI_VENDOR_LIMITS } from './openai-vendor-limits.js';
export type { OpenAISamplingOptions } from './openai-sampling-options.js';
export { OPENAI_TOOL_NAME_POLICY } from './openai-tool-name-policy.js';
export { mapToolsToChatTools } from './map-tools-to-chat-tools.js';
export type { OpenAIToolOptions } from './build-function-parameters.js';
export { mapChatCompletionToToolCalls } from './map-chat-completion-to-tool-calls.js';
export { mapOutcomesToChatMessages } from './map-outcomes-to-chat-messages.js';
export { mapToolsToResponseTools } from './map-tools-to-response-tools.js';
export { mapResponseToToolCalls } from './map-response-to-tool-calls.js';
export { mapOutcomesToResponseItems } from './map-outcomes-to-response-items.js';
export { stripStrictNulls } from './strip-strict-nulls.js';
export { collectOpenAIChatStream, createOpenAIChatStreamAccumulator } from './chat-stream-accumulator.js';
export { collectOpenAIResponsesStream, createOpenAIResponsesStreamAccumulator } from './responses-stream-accumulator.js';
