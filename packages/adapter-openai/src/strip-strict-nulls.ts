import type { JsonSchemaObject, ModelToolCall, ToolCallContext } from '@toolhost/contract';
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

/**
 * The calls with the `null`s strict mode forced removed from their arguments, using the input
 * schema of each called tool as the host declared it (`context.tools`). A call to a tool the
 * context does not know is returned as it is.
 */
export function stripStrictNullsFromCalls(calls: readonly ModelToolCall[], context: ToolCallContext): ModelToolCall[] {
  return calls.map((call) => {
    const schema = context.tools.get(call.name)?.inputSchema;
    return schema ? { ...call, arguments: stripStrictNulls(call.arguments, schema) } : call;
  });
}
