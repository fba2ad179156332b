// Test helper: everything in a function declaration's `parameters` that Gemini's `Schema` (the
// OpenAPI-style field of `@google/genai`) does not accept, found by walking the schema iteratively.
import { Type, type Schema } from '@google/genai';

/**
 * Every field of `@google/genai`'s `Schema`, checked by the compiler: a field added to or removed
 * from the interface makes this object fail to type-check.
 */
export const SCHEMA_FIELDS = {
  anyOf: true,
  default: true,
  description: true,
  enum: true,
  example: true,
  format: true,
  items: true,
  maxItems: true,
  maxLength: true,
  maxProperties: true,
  maximum: true,
  minItems: true,
  minLength: true,
  minProperties: true,
  minimum: true,
  nullable: true,
  pattern: true,
  properties: true,
  propertyOrdering: true,
  required: true,
  title: true,
  type: true,
} as const satisfies Record<keyof Schema, true>;

/** The `Type` values a declaration may use (`TYPE_UNSPECIFIED` "should not be used"; null is `nullable`). */
export const SCHEMA_TYPES: ReadonlySet<string> = new Set(
  Object.values(Type).filter((type) => type !== Type.TYPE_UNSPECIFIED && type !== Type.NULL),
);

/**
 * Formats the API accepts per type: 400 "only 'enum' and 'date-time' are supported for STRING
 * type", "only 'int32' and 'int64' are supported for INTEGER type"; `float`/`double` for NUMBER.
 */
export const SCHEMA_FORMATS: Readonly<Partial<Record<string, readonly string[]>>> = {
  [Type.STRING]: ['enum', 'date-time'],
  [Type.INTEGER]: ['int32', 'int64'],
  [Type.NUMBER]: ['float', 'double'],
};

/** What kind of problem a schema node has. */
export type SchemaProblemKind = 'field' | 'format' | 'type' | 'enum' | 'structure' | 'value';

/** One problem, with the JSON pointer of its node inside `parameters`. */
export interface SchemaProblem {
  readonly kind: SchemaProblemKind;
  readonly path: string;
  readonly message: string;
}

const COUNT_FIELDS = ['minItems', 'maxItems', 'minLength', 'maxLength', 'minProperties', 'maxProperties'] as const;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isStringList(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}

/**
 * Walk `parameters` and list every problem: a key that is not a `Schema` field, a `type` outside
 * the `Type` enum, a `format` its type does not allow, an `enum` that is not a list of strings
 * on a STRING, `type` next to `anyOf` (`@google/genai` throws), `required`/`propertyOrdering`
 * naming a property that is not there, a tuple `items`, and values of the wrong shape.
 */
export function findSchemaProblems(parameters: unknown): SchemaProblem[] {
  const problems: SchemaProblem[] = [];
  const stack: { node: unknown; path: string }[] = [{ node: parameters, path: '' }];
  while (stack.length > 0) {
    const { node, path } = stack.pop()!;
    const problem = (kind: SchemaProblemKind, message: string) => problems.push({ kind, path: path || '/', message });
    if (!isObject(node)) {
      problem('structure', `not a schema object: ${JSON.stringify(node)}`);
      continue;
    }
    for (const key of Object.keys(node)) if (!Object.hasOwn(SCHEMA_FIELDS, key)) problem('field', `'${key}' is not a field of Schema`);

    const type = node['type'];
    if (type !== undefined && (typeof type !== 'string' || !SCHEMA_TYPES.has(type)))
      problem('type', `type ${JSON.stringify(type)} is not a Type value`);
    const format = node['format'];
    if (format !== undefined && !(typeof format === 'string' && typeof type === 'string' && (SCHEMA_FORMATS[type] ?? []).includes(format)))
      problem('format', `format ${JSON.stringify(format)} is not accepted for type ${String(type)}`);
    if (node['enum'] !== undefined) {
      if (type !== Type.STRING) problem('enum', `enum on type ${String(type)} (only STRING)`);
      if (!isStringList(node['enum']) || node['enum'].length === 0)
        problem('enum', `enum ${JSON.stringify(node['enum'])} is not a list of strings`);
    }
    if (type !== undefined && node['anyOf'] !== undefined) problem('structure', 'type and anyOf on one schema');

    const properties = node['properties'];
    for (const keyword of ['required', 'propertyOrdering']) {
      const names = node[keyword];
      if (names === undefined) continue;
      if (!isStringList(names)) problem('value', `${keyword} is not a list of strings`);
      else
        for (const name of names)
          if (!isObject(properties) || !Object.hasOwn(properties, name))
            problem('structure', `${keyword} names '${name}', which is not a property`);
    }
    for (const keyword of COUNT_FIELDS) {
      const value = node[keyword];
      if (value !== undefined && !(typeof value === 'string' && /^\d+$/.test(value)))
        problem('value', `${keyword} ${JSON.stringify(value)} is not an int64 string`);
    }
    for (const keyword of ['minimum', 'maximum']) {
      const value = node[keyword];
      if (value !== undefined && !(typeof value === 'number' && Number.isFinite(value)))
        problem('value', `${keyword} ${JSON.stringify(value)} is not a number`);
    }
    for (const keyword of ['description', 'title', 'pattern']) {
      if (node[keyword] !== undefined && typeof node[keyword] !== 'string') problem('value', `${keyword} is not a string`);
    }
    if (node['nullable'] !== undefined && typeof node['nullable'] !== 'boolean') problem('value', 'nullable is not a boolean');

    if (properties !== undefined) {
      if (!isObject(properties)) problem('structure', 'properties is not an object');
      else for (const [name, child] of Object.entries(properties)) stack.push({ node: child, path: `${path}/properties/${name}` });
    }
    const items = node['items'];
    if (items !== undefined) {
      if (!isObject(items)) problem('structure', 'items is not one schema');
      else stack.push({ node: items, path: `${path}/items` });
    }
    const anyOf = node['anyOf'];
    if (anyOf !== undefined) {
      if (!Array.isArray(anyOf) || anyOf.length === 0) problem('structure', 'anyOf is not a non-empty list');
      else anyOf.forEach((member, index) => stack.push({ node: member, path: `${path}/anyOf/${index}` }));
    }
  }
  return problems;
}
