import type { ProfileRules } from './profile-rule-types.js';

/** `type: [X, "null"]` (either order) → `type: X, nullable: true`, on the output node. */
export function rewriteNullableType(out: Record<string, unknown>): void {
  const type = out['type'];
  if (!Array.isArray(type) || type.length !== 2 || !type.includes('null')) return;
  const other = type[0] === 'null' ? type[1] : type[0];
  if (typeof other !== 'string' || other === 'null') return;
  out['type'] = other;
  out['nullable'] = true;
}

/**
 * Gemini's OpenAPI-style schema has no type arrays: `[X, "null"]` becomes nullable, and a
 * wider list (`["string", "number", "null"]`) becomes `anyOf` of single types (plus `nullable`).
 */
function rewriteTypeArray(out: Record<string, unknown>): void {
  rewriteNullableType(out);
  const type = out['type'];
  if (!Array.isArray(type) || out['anyOf'] !== undefined) return;
  const types = type.filter((item): item is string => typeof item === 'string' && item !== 'null');
  if (types.length === 0) return;
  delete out['type'];
  if (types.length === 1) out['type'] = types[0];
  else out['anyOf'] = types.map((item) => ({ type: item }));
  if (type.includes('null')) out['nullable'] = true;
}

/** Profile `gemini`: the seeds' three rules everywhere, local `$ref`s inlined, type arrays rewritten. */
export const GEMINI_RULES: ProfileRules = {
  inlineRefs: true,
  nullableOptionals: false,
  keyword(keyword, node) {
    if (keyword === '$schema' || keyword === 'additionalProperties') return 'unsupported-keyword';
    if (keyword === 'default' && node['anyOf'] !== undefined) return 'default-next-to-anyOf';
    if (keyword === '$defs' || keyword === 'definitions') return 'refs-inlined';
    return true;
  },
  booleanSchema: () => ({}),
  finish: (out) => rewriteTypeArray(out),
};

/** Fields of Gemini's OpenAPI-style `Schema` (the `parameters` field); the API rejects any other. */
export const GEMINI_SCHEMA_FIELDS: ReadonlySet<string> = new Set([
  'type',
  'format',
  'title',
  'description',
  'nullable',
  'enum',
  'maxItems',
  'minItems',
  'properties',
  'required',
  'minProperties',
  'maxProperties',
  'minLength',
  'maxLength',
  'pattern',
  'example',
  'anyOf',
  'propertyOrdering',
  'default',
  'items',
  'minimum',
  'maximum',
]);
