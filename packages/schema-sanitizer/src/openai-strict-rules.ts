import { findRefCycles } from './find-ref-cycles.js';
import { isPlainObject, resolveLocalRef } from './json-pointer.js';
import type { FinishInfo, ProfileRules } from './profile-rule-types.js';
import { isObjectSchema, isUnconstrained } from './schema-predicates.js';

/** Keywords OpenAI strict mode accepts; everything else is dropped. */
export const OPENAI_STRICT_KEYWORDS: ReadonlySet<string> = new Set([
  'type',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'anyOf',
  'enum',
  'const',
  'description',
  'title',
  '$ref',
  '$defs',
  'definitions',
  'pattern',
  'format',
  'multipleOf',
  'maximum',
  'exclusiveMaximum',
  'minimum',
  'exclusiveMinimum',
  'minItems',
  'maxItems',
]);

/** String formats OpenAI strict mode accepts; other `format` values are dropped. */
export const OPENAI_STRICT_FORMATS: ReadonlySet<string> = new Set([
  'date-time',
  'time',
  'date',
  'duration',
  'email',
  'hostname',
  'ipv4',
  'ipv6',
  'uuid',
]);

/** The primitive types an unconstrained schema is narrowed to in strict mode. */
const ANY_TYPES = ['string', 'number', 'boolean', 'null'];

function addNull(out: Record<string, unknown>): void {
  const type = out['type'];
  if (typeof type === 'string' && type !== 'null') out['type'] = [type, 'null'];
  else if (Array.isArray(type) && !type.includes('null')) out['type'] = [...type, 'null'];
  const values = out['enum'];
  if (Array.isArray(values) && !values.includes(null)) out['enum'] = [...values, null];
}

/** The recursive `$ref`s of each input schema, found once per schema (the input is never mutated). */
const cyclicRefsByRoot = new WeakMap<object, ReadonlySet<string>>();

function cyclicRefs(root: unknown): ReadonlySet<string> {
  if (typeof root !== 'object' || root === null) return new Set();
  let refs = cyclicRefsByRoot.get(root);
  if (refs === undefined) cyclicRefsByRoot.set(root, (refs = new Set(findRefCycles(root))));
  return refs;
}

/**
 * Merge `allOf` members (inline or local `$ref`) into the node: properties united, required
 * united. A member that is a recursive `$ref` (pydantic v1 writes `allOf: [{ $ref }]` for a
 * field of a recursive model) is never merged, since its target holds the same `allOf` again:
 * the first one becomes the node's own `$ref` (strict mode supports recursive refs).
 */
export function mergeAllOf(node: Record<string, unknown>, root: unknown, report: FinishInfo['report']): Record<string, unknown> {
  const { allOf, ...merged } = node;
  if (!Array.isArray(allOf)) return node;
  const properties: Record<string, unknown> = isPlainObject(merged['properties']) ? { ...merged['properties'] } : {};
  const required = new Set<unknown>(Array.isArray(merged['required']) ? merged['required'] : []);
  let hasProperties = isPlainObject(merged['properties']);
  for (const raw of allOf) {
    const ref = isPlainObject(raw) && typeof raw['$ref'] === 'string' ? raw['$ref'] : undefined;
    if (ref !== undefined && cyclicRefs(root).has(ref)) {
      if (merged['$ref'] === undefined) merged['$ref'] = ref;
      else report('allOf', 'not-merged');
      continue;
    }
    const member = ref !== undefined ? resolveLocalRef(root, ref) : raw;
    if (!isPlainObject(member)) {
      if (member !== true) report('allOf', 'not-merged');
      continue;
    }
    for (const [key, value] of Object.entries(member)) {
      if (key === 'properties' && isPlainObject(value)) {
        Object.assign(properties, value);
        hasProperties = true;
      } else if (key === 'required' && Array.isArray(value)) {
        for (const name of value) required.add(name);
      } else if (key === 'allOf' || key === '$ref') {
        report('allOf', 'not-merged');
      } else if (!(key in merged)) {
        merged[key] = value;
      }
    }
  }
  if (hasProperties) merged['properties'] = properties;
  if (required.size > 0) merged['required'] = [...required];
  return merged;
}

/** Profile `openai-strict`: closed objects, every property required, optional ones nullable (see `sanitizeSchema`). */
export const OPENAI_STRICT_RULES: ProfileRules = {
  inlineRefs: false,
  nullableOptionals: true,
  keyword(keyword, node, value) {
    if (keyword === 'required') return null;
    if (keyword === 'additionalProperties') return value === false || value === undefined ? null : 'unsupported-keyword';
    if (!OPENAI_STRICT_KEYWORDS.has(keyword)) return 'unsupported-keyword';
    if (keyword === 'format') return typeof value === 'string' && OPENAI_STRICT_FORMATS.has(value) ? true : 'unsupported-format';
    if (keyword === 'items' && Array.isArray(value)) return 'unsupported-keyword';
    return true;
  },
  booleanSchema: (value) => (value ? { type: [...ANY_TYPES] } : undefined),
  prepare(node, root, report) {
    let result = node['allOf'] === undefined ? node : mergeAllOf(node, root, report);
    if (result['oneOf'] !== undefined) {
      const { oneOf, ...rest } = result;
      if (rest['anyOf'] === undefined) result = { ...rest, anyOf: oneOf };
      else {
        report('oneOf', 'not-merged');
        result = rest;
      }
    }
    return result;
  },
  finish(out, node, info) {
    if (isObjectSchema(node)) {
      if (out['properties'] === undefined) out['properties'] = {};
      out['required'] = [...(info.propertyKeys ?? [])];
      out['additionalProperties'] = false;
    } else if (isUnconstrained(node)) {
      out['type'] = [...ANY_TYPES];
      info.report('type', 'any-narrowed');
    }
    if (info.nullable === 'type') addNull(out);
  },
};
