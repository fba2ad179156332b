import { isPlainObject, resolveLocalRef } from './json-pointer.js';
import { isObjectSchema } from './schema-predicates.js';
import type { DroppedSchemaKeyword } from './schema-profile.js';

/** The schema used when a tool has none, or an unusable one. */
export function emptyObjectSchema(): Record<string, unknown> {
  return { type: 'object', properties: {} };
}

type Report = (keyword: string, reason: DroppedSchemaKeyword['reason']) => void;

function resolveMember(root: unknown, member: unknown): unknown {
  return isPlainObject(member) && typeof member['$ref'] === 'string' ? resolveLocalRef(root, member['$ref']) : member;
}

/**
 * Make the root an object schema without changing which arguments are valid for the
 * object alternatives: a root `$ref` is replaced by its target (siblings win, `$defs` kept);
 * a root `anyOf`/`oneOf` of object schemas becomes one object whose properties are the union
 * and whose `required` is the intersection; a root `{}` becomes an empty object schema. A root
 * of another type is replaced by `{ type: 'object', properties: {} }` (MCP requires object
 * input schemas). Shallow: never mutates `input`.
 */
export function normalizeRoot(input: Record<string, unknown>, report: Report): Record<string, unknown> {
  let node = input;
  for (let hops = 0; typeof node['$ref'] === 'string' && hops < 16; hops++) {
    const { $ref, ...siblings } = node;
    const target = resolveLocalRef(input, $ref as string);
    if (!isPlainObject(target)) break;
    node = { ...target, ...siblings };
  }
  const union = Array.isArray(node['anyOf']) ? 'anyOf' : Array.isArray(node['oneOf']) ? 'oneOf' : undefined;
  if (node['type'] === undefined && !isPlainObject(node['properties']) && union !== undefined) {
    const members = (node[union] as unknown[]).map((member) => resolveMember(input, member));
    const { [union]: _ignored, ...rest } = node;
    if (members.length > 0 && members.every((member) => isPlainObject(member) && isObjectSchema(member))) {
      const properties: Record<string, unknown> = {};
      let required: Set<unknown> | undefined;
      for (const member of members as Record<string, unknown>[]) {
        if (isPlainObject(member['properties'])) Object.assign(properties, member['properties']);
        const names = new Set<unknown>(Array.isArray(member['required']) ? member['required'] : []);
        required = required === undefined ? names : new Set([...required].filter((name) => names.has(name)));
      }
      report(union, 'root-not-object');
      return { ...rest, type: 'object', properties, ...(required && required.size > 0 ? { required: [...required] } : {}) };
    }
    report(union, 'root-not-object');
    return emptyObjectSchema();
  }
  const type = node['type'];
  if (type === 'object') return node;
  if (Array.isArray(type) && type.includes('object')) return { ...node, type: 'object' };
  if (type === undefined) {
    if (isPlainObject(node['properties'])) return { ...node, type: 'object' };
    if (node['anyOf'] === undefined && node['oneOf'] === undefined && node['allOf'] === undefined)
      return { ...node, ...emptyObjectSchema() };
    return node;
  }
  report('type', 'root-not-object');
  return emptyObjectSchema();
}
