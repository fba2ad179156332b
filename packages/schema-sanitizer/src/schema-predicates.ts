import { isPlainObject } from './json-pointer.js';

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
