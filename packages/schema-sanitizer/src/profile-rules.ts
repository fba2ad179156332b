import { isPlainObject, resolveLocalRef } from './json-pointer.js';
import type { SchemaDropReason, SchemaProfile } from './schema-profile.js';

/** How a schema node must be made nullable (only `openai-strict` makes optional properties nullable). */
export type NullableStrategy = 'type' | 'anyOf' | 'wrap';

/** What the walker tells a profile when a schema node is done. */
export interface FinishInfo {
  /** Property names kept in `properties`, in order; `undefined` when the node has no `properties`. */
  readonly propertyKeys: readonly string[] | undefined;
  /** Set when the node must accept `null` (an optional property in `openai-strict`). */
  readonly nullable: NullableStrategy | undefined;
  /** Report a dropped or rewritten keyword of this node. */
  report(keyword: string, reason: SchemaDropReason): void;
}

/** The per-profile decisions the walker asks for. */
export interface ProfileRules {
  /** Inline local `$ref`s (bounded) instead of keeping them. */
  readonly inlineRefs: boolean;
  /** Make properties that are not `required` nullable and list every property in `required`. */
  readonly nullableOptionals: boolean;
  /** `true` to keep the keyword, a reason to drop it and report, `null` to drop it silently. */
  keyword(keyword: string, node: Record<string, unknown>, value: unknown): true | SchemaDropReason | null;
  /** What a boolean schema becomes; `undefined` removes the slot. */
  booleanSchema(value: boolean): boolean | Record<string, unknown> | undefined;
  /** Rewrite a node before its keywords are walked (shallow; never mutates `node`). */
  prepare?(node: Record<string, unknown>, root: unknown, report: FinishInfo['report']): Record<string, unknown>;
  /** Adjust the output node after its own keywords were copied (children may not be filled yet). */
  finish?(out: Record<string, unknown>, node: Record<string, unknown>, info: FinishInfo): void;
}

/** `type: [X, "null"]` (either order) → `type: X, nullable: true`, on the output node. */
function rewriteNullableType(out: Record<string, unknown>): void {
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

const GEMINI: ProfileRules = {
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

const GEMINI_JSON_SCHEMA: ProfileRules = {
  inlineRefs: false,
  nullableOptionals: false,
  keyword: () => true,
  booleanSchema: (value) => value,
  finish: (out) => rewriteNullableType(out),
};

const ANTHROPIC: ProfileRules = {
  inlineRefs: false,
  nullableOptionals: false,
  keyword: () => true,
  booleanSchema: (value) => value,
};

/** Keywords OpenAI strict mode accepts; everything else is dropped. */
export const OPENAI_STRICT_KEYWORDS: ReadonlySet<string> = new Set([
  'type', 'properties', 'required', 'additionalProperties', 'items', 'anyOf', 'enum', 'const',
  'description', 'title', '$ref', '$defs', 'definitions', 'pattern', 'format', 'multipleOf',
  'maximum', 'exclusiveMaximum', 'minimum', 'exclusiveMinimum', 'minItems', 'maxItems',
]);

/** String formats OpenAI strict mode accepts; other `format` values are dropped. */
export const OPENAI_STRICT_FORMATS: ReadonlySet<string> = new Set([
  'date-time', 'time', 'date', 'duration', 'email', 'hostname', 'ipv4', 'ipv6', 'uuid',
]);

/** The primitive types an unconstrained schema is narrowed to in strict mode. */
const ANY_TYPES = ['string', 'number', 'boolean', 'null'];

/** True when the node describes an object (by `type` or by having `properties`). */
export function isObjectSchema(node: Record<string, unknown>): boolean {
  const type = node['type'];
  if (type === 'object') return true;
  if (Array.isArray(type)) return type.includes('object');
  return type === undefined && isPlainObject(node['properties']);
}

const CONSTRAINING = ['type', 'anyOf', 'oneOf', 'allOf', '$ref', 'enum', 'const', 'properties', 'items', 'not'];

/** True when the node places no constraint on the value (`{}` or only annotations). */
export function isUnconstrained(node: Record<string, unknown>): boolean {
  return !CONSTRAINING.some((keyword) => node[keyword] !== undefined);
}

function addNull(out: Record<string, unknown>): void {
  const type = out['type'];
  if (typeof type === 'string' && type !== 'null') out['type'] = [type, 'null'];
  else if (Array.isArray(type) && !type.includes('null')) out['type'] = [...type, 'null'];
  const values = out['enum'];
  if (Array.isArray(values) && !values.includes(null)) out['enum'] = [...values, null];
}

/** Merge `allOf` members (inline or local `$ref`) into the node: properties united, required united. */
function mergeAllOf(node: Record<string, unknown>, root: unknown, report: FinishInfo['report']): Record<string, unknown> {
  const { allOf, ...merged } = node;
  if (!Array.isArray(allOf)) return node;
  const properties: Record<string, unknown> = isPlainObject(merged['properties']) ? { ...merged['properties'] } : {};
  const required = new Set<unknown>(Array.isArray(merged['required']) ? merged['required'] : []);
  let hasProperties = isPlainObject(merged['properties']);
  for (const raw of allOf) {
    const member = isPlainObject(raw) && typeof raw['$ref'] === 'string' ? resolveLocalRef(root, raw['$ref']) : raw;
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

const OPENAI_STRICT: ProfileRules = {
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

/** The rules of every profile that walks schemas (`none` copies and has no rules). */
export const PROFILE_RULES: Readonly<Record<Exclude<SchemaProfile, 'none'>, ProfileRules>> = {
  gemini: GEMINI,
  'gemini-json-schema': GEMINI_JSON_SCHEMA,
  'openai-strict': OPENAI_STRICT,
  anthropic: ANTHROPIC,
};
