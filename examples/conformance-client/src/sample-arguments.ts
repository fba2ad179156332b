/** A JSON Schema property, as far as sample values need it. */
interface PropertySchema {
  readonly type?: string | readonly string[];
  readonly enum?: readonly unknown[];
  readonly default?: unknown;
  readonly properties?: Readonly<Record<string, PropertySchema>>;
}

function sampleValue(schema: PropertySchema, index: number): unknown {
  if (schema.default !== undefined) return schema.default;
  if (schema.enum && schema.enum.length > 0) return schema.enum[0];
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'number':
    case 'integer':
      return index + 2;
    case 'boolean':
      return true;
    case 'null':
      return null;
    case 'array':
      return [];
    case 'object':
      return sampleArguments(schema);
    default:
      return `value-${index + 1}`;
  }
}

/**
 * Arguments that satisfy a tool's input schema (defaults and first enum values where given,
 * small distinct numbers otherwise), the way a scripted model fills in a call.
 */
export function sampleArguments(schema: PropertySchema | Readonly<Record<string, unknown>>): Record<string, unknown> {
  const properties = (schema as PropertySchema).properties ?? {};
  return Object.fromEntries(Object.entries(properties).map(([name, property], index) => [name, sampleValue(property, index)]));
}
