// Public API of @toolhost/adapter-gemini. Contract types (ModelAdapter, AdapterError, ...) come from @toolhost/contract.
export { createGeminiAdapter } from './create-gemini-adapter.js';
export type { GeminiAdapter, GeminiAdapterOptions } from './create-gemini-adapter.js';
export type { GeminiSamplingOptions } from './create-gemini-message.js';
export { GEMINI_TOOL_NAME_POLICY } from './gemini-tool-name-policy.js';
export { GEMINI_VENDOR_LIMITS } from './gemini-vendor-limits.js';
export { mapOutcomesToContent } from './map-outcomes-to-content.js';
export type { GeminiMediaPlacement, MapOutcomesToContentOptions } from './map-outcomes-to-content.js';
export { mapResponseToToolCalls } from './map-response-to-tool-calls.js';
export { mapToolsToFunctionDeclarations } from './map-tools-to-function-declarations.js';
export type { GeminiSchemaField, MapToolsToFunctionDeclarationsOptions } from './map-tools-to-function-declarations.js';
export { collectGeminiStream, createGeminiStreamAccumulator } from './gemini-stream-accumulator.js';
