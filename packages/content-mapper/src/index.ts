// Public API of @toolhost/content-mapper.
export { mapCallToolResult } from './map-call-tool-result.js';
export type { MapCallToolResultOptions } from './map-call-tool-result.js';
export type { CallToolResultLike, ContentPart, InlineDataPart, InlineDataSource, MappedToolResult, TextPart } from './content-part.js';
export { wrapUntrusted } from './wrap-untrusted.js';
export type { WrapUntrustedOptions } from './wrap-untrusted.js';
export { sanitizeDisplayText } from './sanitize-display-text.js';
