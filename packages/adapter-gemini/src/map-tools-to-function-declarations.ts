import type { FunctionDeclaration, Schema } from '@google/genai';
import type { HostToolDefinition, JsonSchemaObject } from '@toolhost/contract';
import { sanitizeSchema } from '@toolhost/schema-sanitizer';

/** Which `FunctionDeclaration` field carries a tool's input schema. */
export type GeminiSchemaField = 'parameters' | 'parametersJsonSchema';

/** Options of {@link mapToolsToFunctionDeclarations}. */
export interface MapToolsToFunctionDeclarationsOptions {
  /**
   * `parameters` (the OpenAPI subset, sanitised with profile `gemini`) or `parametersJsonSchema`
   * (raw JSON Schema, `$ref` allowed, sanitised with profile `gemini-json-schema`).
   * @default 'parameters'
   */
  schemaField?: GeminiSchemaField;
}

/**
 * Turn host tools into Gemini function declarations with the right schema field and sanitizer
 * profile. Pass the result as `config.tools: [{ functionDeclarations }]`. Names are declared as
 * given: they must already satisfy `GEMINI_TOOL_NAME_POLICY`.
 */
export function mapToolsToFunctionDeclarations(
  tools: readonly HostToolDefinition[],
  options: MapToolsToFunctionDeclarationsOptions = {},
): FunctionDeclaration[] {
  const schemaField = options.schemaField ?? 'parameters';
  return tools.map((tool) => {
    const declaration: FunctionDeclaration = { name: tool.name };
    if (tool.description) declaration.description = tool.description;
    if (schemaField === 'parametersJsonSchema') {
      declaration.parametersJsonSchema = sanitizeSchema(tool.inputSchema, { profile: 'gemini-json-schema' });
      return declaration;
    }
    const parameters = sanitizeSchema(tool.inputSchema, { profile: 'gemini' }) as JsonSchemaObject;
    // The Gemini API rejects an OBJECT schema with no properties ("should be non-empty for
    // OBJECT type"); a tool without parameters leaves the field out instead.
    if (!isEmptyObjectSchema(parameters)) declaration.parameters = parameters as Schema;
    return declaration;
  });
}

function isEmptyObjectSchema(schema: JsonSchemaObject): boolean {
  const type = typeof schema['type'] === 'string' ? schema['type'].toLowerCase() : undefined;
  if (type !== undefined && type !== 'object') return false;
  const properties = schema['properties'];
  const hasProperties = typeof properties === 'object' && properties !== null && Object.keys(properties).length > 0;
  const hasComposition = ['anyOf', 'oneOf', 'allOf', '$ref'].some((key) => key in schema);
  return !hasProperties && !hasComposition;
}
