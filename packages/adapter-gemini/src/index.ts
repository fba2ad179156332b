// Public API of @toolhost/adapter-gemini.
export { createGeminiAdapter } from './create-gemini-adapter.js';
export type { GeminiAdapter, GeminiAdapterOptions } from './create-gemini-adapter.js';
export type { GeminiSamplingOptions } from './create-gemini-message.js';
export { GeminiAdapterError } from './gemini-adapter-error.js';
export type { GeminiAdapterErrorCode, GeminiAdapterErrorOptions } from './gemini-adapter-error.js';
export { mapOutcomesToContent } from './map-outcomes-to-content.js';
export type { GeminiMediaPlacement, MapOutcomesToContentOptions } from './map-outcomes-to-content.js';
export { mapResponseToToolCalls } from './map-response-to-tool-calls.js';
export { mapToolsToFunctionDeclarations } from './map-tools-to-function-declarations.js';
export type { GeminiSchemaField, MapToolsToFunctionDeclarationsOptions } from './map-tools-to-function-declarations.js';
