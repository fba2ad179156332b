// Public API of @toolhost/content-mapper.
export { mapCallToolResult } from './map-call-tool-result.js';
export type { MapCallToolResultOptions } from './map-call-tool-result.js';
export type { CallToolResultLike, MappedToolResult } from './content-part.js';
export type { ContentPart, InlineDataPart, InlineDataSource, TextPart } from '@toolhost/contract';
export { wrapUntrusted } from './wrap-untrusted.js';
export type { WrapUntrustedOptions } from './wrap-untrusted.js';
