import type { FunctionDeclaration, Schema, Type } from '@google/genai';
import type { HostToolDefinition, JsonSchemaObject } from '@toolhost/contract';
import { sanitizeSchema } from '@toolhost/schema-sanitizer';

/** Which `FunctionDeclaration` field carries a tool's input schema. */
export type GeminiSchemaField = 'parameters' | 'parametersJsonSchema';

/** Options of {@link mapToolsToFunctionDeclarations}. */
export interface MapToolsToFunctionDeclarationsOptions {
  /**
   * `parameters` (Gemini's OpenAPI-style `Schema`: the input schema is sanitised with profile
   * `gemini` and `geminiSchemaFieldsOnly`, so it holds only fields, types, formats and enums the
   * API accepts there) or `parametersJsonSchema` (JSON Schema, `$ref` allowed, sanitised with
   * profile `gemini-json-schema`, as Gemini CLI sends it).
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
    const parameters = sanitizeSchema(tool.inputSchema, { profile: 'gemini', geminiSchemaFieldsOnly: true });
    // The Gemini API rejects an OBJECT schema with no properties ("should be non-empty for
    // OBJECT type"); a tool without parameters leaves the field out instead.
    if (!isEmptyObjectSchema(parameters)) declaration.parameters = toGeminiSchema(parameters);
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

/** JSON Schema type names → `@google/genai`'s `Type` values (the adapter imports only types). */
const GEMINI_TYPES: Readonly<Record<string, Type>> = {
  string: 'STRING' as Type.STRING,
  number: 'NUMBER' as Type.NUMBER,
  integer: 'INTEGER' as Type.INTEGER,
  boolean: 'BOOLEAN' as Type.BOOLEAN,
  array: 'ARRAY' as Type.ARRAY,
  object: 'OBJECT' as Type.OBJECT,
};

/** `Schema` fields the API reads as int64, which `Schema` types as strings. */
type CountField = 'minItems' | 'maxItems' | 'minLength' | 'maxLength' | 'minProperties' | 'maxProperties';
const COUNT_FIELDS: ReadonlySet<string> = new Set<CountField>([
  'minItems',
  'maxItems',
  'minLength',
  'maxLength',
  'minProperties',
  'maxProperties',
]);

function strings(value: unknown): string[] | undefined {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : undefined;
}

function isObject(value: unknown): value is JsonSchemaObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Set a property by name without ever touching a prototype (a tool may name a property `__proto__`). */
function setOwn(target: Record<string, Schema>, name: string, value: Schema): void {
  Object.defineProperty(target, name, { value, writable: true, enumerable: true, configurable: true });
}

/**
 * Copy a schema sanitised for `parameters` into a typed `Schema`: `type` as the `Type` value
 * (`STRING`...), count fields as the int64 strings `Schema` declares, every other field as it
 * is. Iterative, like the sanitizer, so deep schemas cannot overflow the stack.
 */
function toGeminiSchema(root: JsonSchemaObject): Schema {
  const result: Schema = {};
  const stack: Array<{ source: JsonSchemaObject; target: Schema }> = [{ source: root, target: result }];
  while (stack.length > 0) {
    const { source, target } = stack.pop()!;
    for (const [key, value] of Object.entries(source)) {
      if (COUNT_FIELDS.has(key)) {
        target[key as CountField] = String(value);
        continue;
      }
      switch (key) {
        case 'type': {
          const type = typeof value === 'string' ? GEMINI_TYPES[value.toLowerCase()] : undefined;
          if (type !== undefined) target.type = type;
          break;
        }
        case 'properties':
          if (isObject(value)) {
            const properties: Record<string, Schema> = {};
            for (const [name, child] of Object.entries(value)) {
              const schema: Schema = {};
              setOwn(properties, name, schema);
              if (isObject(child)) stack.push({ source: child, target: schema });
            }
            target.properties = properties;
          }
          break;
        case 'items':
          if (isObject(value)) stack.push({ source: value, target: (target.items = {}) });
          break;
        case 'anyOf':
          if (Array.isArray(value)) {
            target.anyOf = value.filter(isObject).map((member) => {
              const schema: Schema = {};
              stack.push({ source: member, target: schema });
              return schema;
            });
          }
          break;
        case 'enum':
        case 'required':
        case 'propertyOrdering': {
          const list = strings(value);
          if (list !== undefined) target[key] = list;
          break;
        }
        case 'description':
        case 'title':
        case 'pattern':
        case 'format':
          if (typeof value === 'string') target[key] = value;
          break;
        case 'minimum':
        case 'maximum':
          if (typeof value === 'number') target[key] = value;
          break;
        case 'nullable':
          if (typeof value === 'boolean') target.nullable = value;
          break;
        case 'default':
        case 'example':
          target[key] = value;
          break;
        default:
          // The sanitizer kept only `Schema` fields; anything else cannot be sent.
          break;
      }
    }
  }
  return result;
}
