import { escapeControlText, type ElicitationField, type ElicitationOption } from '@toolhost/contract';

type Schema = Record<string, unknown>;

function isRecord(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function constOptions(list: unknown): ElicitationOption[] | undefined {
  if (!Array.isArray(list)) return undefined;
  const options = list
    .filter(isRecord)
    .filter((entry) => typeof entry.const === 'string')
    .map((entry) => ({
      value: entry.const as string,
      label: escapeControlText(typeof entry.title === 'string' ? entry.title : (entry.const as string)),
    }));
  return options.length > 0 ? options : undefined;
}

function enumOptions(schema: Schema): ElicitationOption[] | undefined {
  if (Array.isArray(schema.enum)) {
    const names = Array.isArray(schema.enumNames) ? schema.enumNames : [];
    return schema.enum.map((value, index) => {
      const label = names[index];
      return { value: String(value), label: escapeControlText(typeof label === 'string' ? label : String(value)) };
    });
  }
  return constOptions(schema.oneOf) ?? constOptions(schema.anyOf);
}

function numberField(schema: Schema, key: 'minimum' | 'maximum' | 'minLength' | 'maxLength' | 'minItems' | 'maxItems'): number | undefined {
  const value = schema[key];
  return typeof value === 'number' ? value : undefined;
}

function describeField(name: string, schema: Schema, required: boolean): ElicitationField {
  const base = {
    name,
    title: escapeControlText(typeof schema.title === 'string' ? schema.title : name),
    required,
    ...(typeof schema.description === 'string' ? { description: escapeControlText(schema.description) } : {}),
    ...('default' in schema ? { default: schema.default } : {}),
  };
  if (schema.type === 'array') {
    const items = isRecord(schema.items) ? schema.items : {};
    const minItems = numberField(schema, 'minItems');
    const maxItems = numberField(schema, 'maxItems');
    return {
      ...base,
      kind: 'multi-select',
      options: enumOptions(items) ?? [],
      ...(minItems !== undefined ? { minItems } : {}),
      ...(maxItems !== undefined ? { maxItems } : {}),
    };
  }
  const options = enumOptions(schema);
  if (options) return { ...base, kind: 'single-select', options };
  if (schema.type === 'boolean') return { ...base, kind: 'boolean' };
  const kind = schema.type === 'number' || schema.type === 'integer' ? schema.type : 'string';
  const minimum = numberField(schema, kind === 'string' ? 'minLength' : 'minimum');
  const maximum = numberField(schema, kind === 'string' ? 'maxLength' : 'maximum');
  return {
    ...base,
    kind,
    ...(typeof schema.format === 'string' ? { format: escapeControlText(schema.format) } : {}),
    ...(minimum !== undefined ? { minimum } : {}),
    ...(maximum !== undefined ? { maximum } : {}),
  };
}

/**
 * Describes a form-mode `requestedSchema` as a list of fields a UI can render: primitive fields,
 * and the SEP-1330 enum forms (untitled `enum`, titled `oneOf`/`anyOf` of `const`+`title`,
 * legacy `enumNames`, and multi-select arrays of either). Text shown to the user (titles,
 * descriptions, option labels, formats) comes from the server: its control, BiDi and zero-width
 * characters are written as visible `\uXXXX` escapes. Values sent back (field names, option
 * values, defaults) are kept exactly as the server gave them.
 */
export function describeElicitationForm(requestedSchema: Readonly<Record<string, unknown>>): ElicitationField[] {
  const properties = isRecord(requestedSchema.properties) ? requestedSchema.properties : {};
  const required = new Set(Array.isArray(requestedSchema.required) ? requestedSchema.required : []);
  return Object.entries(properties)
    .filter((entry): entry is [string, Schema] => isRecord(entry[1]))
    .map(([name, schema]) => describeField(name, schema, required.has(name)));
}

/**
 * Returns `content` with every field the user left out filled with the schema's `default`
 * (SEP-1034). Never mutates its inputs; fields the user gave are kept as they are.
 */
export function applyElicitationDefaults(
  requestedSchema: Readonly<Record<string, unknown>>,
  content: Readonly<Record<string, unknown>> | undefined,
): Record<string, unknown> {
  const result: Record<string, unknown> = { ...content };
  const properties = isRecord(requestedSchema.properties) ? requestedSchema.properties : {};
  for (const [name, schema] of Object.entries(properties)) {
    if (!isRecord(schema) || result[name] !== undefined || !('default' in schema)) continue;
    const value = schema.default;
    result[name] = Array.isArray(value) ? [...value] : value;
  }
  return result;
}
