/** What {@link measureSchema} counts in one input schema, as `VendorLimits` defines each. */
export interface SchemaMeasures {
  /** Deepest nesting of object schemas (the root object is level 1; 0 when there is no object). */
  readonly depth: number;
  /** Keys of every `properties` map. */
  readonly properties: number;
  /** Values of every `enum`. */
  readonly enumValues: number;
  /** Characters of property names, definition names, string enum values and string consts. */
  readonly stringLength: number;
}

// Keywords whose value is a map of names to schemas, one schema, or a list of schemas.
const SCHEMA_MAPS = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'] as const;
const NAMED_DEFINITIONS: ReadonlySet<string> = new Set(['$defs', 'definitions']);
const SCHEMAS = ['items', 'additionalProperties', 'additionalItems', 'unevaluatedProperties', 'contains', 'not', 'if', 'then', 'else'];
const SCHEMA_LISTS = ['anyOf', 'oneOf', 'allOf', 'prefixItems'];

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** An object schema: `type: 'object'` (or a type list naming it), or a schema with `properties`. */
function isObjectSchema(schema: Record<string, unknown>): boolean {
  const type = schema['type'];
  if (typeof type === 'string') return type.toLowerCase() === 'object';
  if (Array.isArray(type)) return type.some((item) => typeof item === 'string' && item.toLowerCase() === 'object');
  return isRecord(schema['properties']);
}

/**
 * Count what vendors limit in a tool's input schema as an adapter declares it (already
 * sanitised, so bounded in size). Walks with a stack of its own, never recursion, so a deeply
 * nested schema cannot run out of call stack. A `$ref` is not followed: a definition is counted
 * once, where it is defined, which never counts more than the vendor does.
 */
export function measureSchema(schema: unknown): SchemaMeasures {
  let depth = 0;
  let properties = 0;
  let enumValues = 0;
  let stringLength = 0;
  const stack: Array<{ readonly schema: unknown; readonly level: number }> = [{ schema, level: 0 }];
  while (stack.length > 0) {
    const { schema: node, level: parentLevel } = stack.pop() as { schema: unknown; level: number };
    if (!isRecord(node)) continue;
    const level = isObjectSchema(node) ? parentLevel + 1 : parentLevel;
    depth = Math.max(depth, level);
    const values = node['enum'];
    if (Array.isArray(values)) {
      enumValues += values.length;
      for (const value of values) if (typeof value === 'string') stringLength += value.length;
    }
    if (typeof node['const'] === 'string') stringLength += node['const'].length;
    for (const keyword of SCHEMA_MAPS) {
      const map = node[keyword];
      if (!isRecord(map)) continue;
      const names = Object.keys(map);
      if (keyword === 'properties') properties += names.length;
      if (keyword === 'properties' || NAMED_DEFINITIONS.has(keyword)) for (const name of names) stringLength += name.length;
      for (const name of names) stack.push({ schema: map[name], level });
    }
    for (const keyword of SCHEMAS) if (isRecord(node[keyword])) stack.push({ schema: node[keyword], level });
    for (const keyword of [...SCHEMA_LISTS, 'items']) {
      const list = node[keyword];
      if (Array.isArray(list)) for (const member of list) stack.push({ schema: member, level });
    }
  }
  return { depth, properties, enumValues, stringLength };
}
