/** The value of the keyword is plain data (copied as is). */
export const DATA = 0;
/** The value is one schema (or a boolean schema). */
export const SCHEMA = 1;
/** The value maps names to schemas (`properties`, `$defs`...). */
export const SCHEMA_MAP = 2;
/** The value is a list of schemas (`anyOf`, `prefixItems`...). */
export const SCHEMA_LIST = 3;
/** One schema or, in draft-07 tuple form, a list of schemas (`items`). */
export const SCHEMA_OR_LIST = 4;

/** What kind of value a JSON Schema keyword holds. */
export type KeywordKind = typeof DATA | typeof SCHEMA | typeof SCHEMA_MAP | typeof SCHEMA_LIST | typeof SCHEMA_OR_LIST;

const KINDS = new Map<string, KeywordKind>([
  ['properties', SCHEMA_MAP],
  ['patternProperties', SCHEMA_MAP],
  ['$defs', SCHEMA_MAP],
  ['definitions', SCHEMA_MAP],
  ['dependentSchemas', SCHEMA_MAP],
  // draft-07: values are schemas or arrays of property names (the arrays are copied as data).
  ['dependencies', SCHEMA_MAP],
  ['additionalProperties', SCHEMA],
  ['additionalItems', SCHEMA],
  ['unevaluatedProperties', SCHEMA],
  ['unevaluatedItems', SCHEMA],
  ['contains', SCHEMA],
  ['propertyNames', SCHEMA],
  ['not', SCHEMA],
  ['if', SCHEMA],
  ['then', SCHEMA],
  ['else', SCHEMA],
  ['contentSchema', SCHEMA],
  ['anyOf', SCHEMA_LIST],
  ['oneOf', SCHEMA_LIST],
  ['allOf', SCHEMA_LIST],
  ['prefixItems', SCHEMA_LIST],
  ['items', SCHEMA_OR_LIST],
]);

/**
 * The kind of value `keyword` holds. Keywords not listed (`default`, `enum`, `const`,
 * `examples`, vendor `x-*` extensions...) are data: never read as schemas.
 */
export function keywordKind(keyword: string): KeywordKind {
  return KINDS.get(keyword) ?? DATA;
}
