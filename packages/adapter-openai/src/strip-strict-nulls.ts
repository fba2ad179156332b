import type { JsonSchemaObject } from '@toolhost/host';
import { stripNullOptionals } from '@toolhost/schema-sanitizer';

/**
 * Strict mode makes every optional property required and nullable, so the model answers
 * `null` for "not given". MCP servers expect such properties to be absent: this removes a
 * `null` wherever the tool's ORIGINAL schema made the property optional and did not allow
 * `null`, at any depth (nested objects, array items, `allOf`/`anyOf`/`oneOf` members, local
 * `$ref`s). Returns a new object; the input is not changed. The same as `stripNullOptionals`
 * of `@toolhost/schema-sanitizer`, typed for call arguments.
 *
 * @example
 * stripStrictNulls({ query: 'x', limit: null }, { type: 'object', properties: { query: {}, limit: { type: 'integer' } }, required: ['query'] });
 * // → { query: 'x' }
 */
export function stripStrictNulls(value: Record<string, unknown>, schema: JsonSchemaObject): Record<string, unknown> {
  return stripNullOptionals(value, schema);
}
