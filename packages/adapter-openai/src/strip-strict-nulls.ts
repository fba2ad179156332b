import type { JsonSchemaObject } from '@toolhost/host';

/**
 * Strict mode makes every optional property required and nullable, so the model answers
 * `null` for "not given". MCP servers expect such properties to be absent: this removes a
 * `null` wherever the tool's ORIGINAL schema made the property optional and did not allow
 * `null` (local `$ref`s are followed). Returns a new object; the input is not changed.
 *
 * @example
 * stripStrictNulls({ query: 'x', limit: null }, { type: 'object', properties: { query: {}, limit: { type: 'integer' } }, required: ['query'] });
 * // → { query: 'x' }
 */
export function stripStrictNulls(value: Record<string, unknown>, schema: JsonSchemaObject): Record<string, unknown> {
  return stripObject(value, schema, { root: schema, depth: 0 });
}

interface Walk {
  readonly root: JsonSchemaObject;
  readonly depth: number;
}

// Guards against recursive `$ref`s paired with deeply nested arguments.
const MAX_DEPTH = 64;

function stripObject(value: Record<string, unknown>, schema: JsonSchemaObject, walk: Walk): Record<string, unknown> {
  const properties = asRecord(schema['properties']) ?? {};
  const required = new Set(Array.isArray(schema['required']) ? (schema['required'] as unknown[]) : []);
  const result: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    const propertySchema = resolve(asRecord(properties[key]), walk.root);
    if (item === null && propertySchema && !required.has(key) && !allowsNull(propertySchema, walk.root)) continue;
    result[key] = propertySchema ? stripValue(item, propertySchema, walk) : item;
  }
  return result;
}

function stripValue(value: unknown, schema: JsonSchemaObject, walk: Walk): unknown {
  if (walk.depth >= MAX_DEPTH) return value;
  const next = { root: walk.root, depth: walk.depth + 1 };
  if (Array.isArray(value)) {
    const items = resolve(asRecord(schema['items']), walk.root);
    return items ? value.map((item) => stripValue(item, items, next)) : value;
  }
  const record = asRecord(value);
  if (record && asRecord(schema['properties'])) return stripObject(record, schema, next);
  return value;
}

function allowsNull(schema: JsonSchemaObject, root: JsonSchemaObject, seen = new Set<JsonSchemaObject>()): boolean {
  if (seen.has(schema)) return false;
  seen.add(schema);
  const type = schema['type'];
  if (type === 'null' || (Array.isArray(type) && type.includes('null'))) return true;
  if (schema['nullable'] === true) return true;
  if (Array.isArray(schema['enum']) && schema['enum'].includes(null)) return true;
  if ('const' in schema && schema['const'] === null) return true;
  for (const key of ['anyOf', 'oneOf']) {
    const branches = schema[key];
    if (!Array.isArray(branches)) continue;
    if (branches.some((branch) => branch === true || allowsNullIn(asRecord(branch), root, seen))) return true;
  }
  if (typeof schema['$ref'] === 'string') return allowsNullIn(resolve(schema, root), root, seen);
  // A schema without any constraint accepts null.
  return !['type', 'properties', 'enum', 'const', 'anyOf', 'oneOf', 'allOf', '$ref', 'items', 'not'].some((k) => k in schema);
}

function allowsNullIn(schema: JsonSchemaObject | undefined, root: JsonSchemaObject, seen: Set<JsonSchemaObject>): boolean {
  return schema !== undefined && allowsNull(schema, root, seen);
}

/** Follow a local `$ref` (`#/...`) to its target; other schemas come back unchanged. */
function resolve(schema: JsonSchemaObject | undefined, root: JsonSchemaObject): JsonSchemaObject | undefined {
  let current = schema;
  for (let hops = 0; current && typeof current['$ref'] === 'string' && hops < 16; hops += 1) {
    const ref = current['$ref'];
    if (!ref.startsWith('#')) return current;
    let target: unknown = root;
    for (const token of ref.slice(1).split('/').filter(Boolean)) {
      const key = decodeURIComponent(token).replace(/~1/g, '/').replace(/~0/g, '~');
      target = asRecord(target)?.[key];
    }
    const next = asRecord(target);
    if (!next) return current;
    current = next;
  }
  return current;
}

function asRecord(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}
