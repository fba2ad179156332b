// Public API of @toolhost/schema-sanitizer.
export { generateValidName, MAX_TOOL_NAME_LENGTH } from './generate-valid-name.js';
export { sanitizeSchema } from './sanitize-schema.js';
export type { SanitizeSchemaOptions } from './sanitize-schema.js';
export { SCHEMA_PROFILES } from './schema-profile.js';
export type { DroppedSchemaKeyword, JsonSchemaObject, SchemaDropReason, SchemaProfile } from './schema-profile.js';
export { GEMINI_SCHEMA_FIELDS } from './gemini-rules.js';
export { GEMINI_FORMATS } from './gemini-fields-only-rules.js';
export { OPENAI_STRICT_FORMATS, OPENAI_STRICT_KEYWORDS } from './openai-strict-rules.js';
export { assignToolNames } from './assign-tool-names.js';
export type { AssignedToolName, AssignToolNamesOptions, ToolNameAssignment, ToolNameEntry, ToolNameKind } from './assign-tool-names.js';
export { findRefCycles, hasRefCycle } from './find-ref-cycles.js';
export { shortHash } from './short-hash.js';
export { stripNullOptionals } from './strip-null-optionals.js';
export { SchemaSanitizerError } from './schema-sanitizer-error.js';
export type { SchemaSanitizerErrorCode, SchemaSanitizerErrorOptions } from './schema-sanitizer-error.js';
