import { isPlainObject, resolveLocalRef } from './json-pointer.js';

/** Follow local `$ref`s (a bounded number of hops) to the schema they name. */
function resolve(root: unknown, schema: unknown): unknown {
  let node = schema;
  for (let hops = 0; hops < 32 && isPlainObject(node) && typeof node['$ref'] === 'string'; hops++)
    node = resolveLocalRef(root, node['$ref']);
  return node;
}

/** True when the original schema itself accepts `null`. */
function allowsNull(root: unknown, schema: unknown): boolean {
  const stack: unknown[] = [schema];
  for (let visited = 0; stack.length > 0 && visited < 256; visited++) {
    const node = resolve(root, stack.pop());
    if (node === true) return true;
    if (!isPlainObject(node)) continue;
    const type = node['type'];
    if (
      type === undefined &&
      node['enum'] === undefined &&
      !('const' in node) &&
      node['anyOf'] === undefined &&
      node['oneOf'] === undefined
    )
      return true;
    if (type === 'null' || (Array.isArray(type) && type.includes('null')) || node['nullable'] === true) return true;
    if (Array.isArray(node['enum']) && node['enum'].includes(null)) return true;
    if ('const' in node && node['const'] === null) return true;
    for (const keyword of ['anyOf', 'oneOf']) if (Array.isArray(node[keyword])) stack.push(...(node[keyword] as unknown[]));
  }
  return false;
}

/** The object schema among a node and its `anyOf`/`oneOf`/`allOf` alternatives that has `properties`, if any. */
function objectBranches(root: unknown, schema: unknown): Record<string, unknown>[] {
  const node = resolve(root, schema);
  if (!isPlainObject(node)) return [];
  const branches = isPlainObject(node['properties']) ? [node] : [];
  for (const keyword of ['anyOf', 'oneOf', 'allOf']) {
    if (Array.isArray(node[keyword])) {
      for (const member of node[keyword] as unknown[]) {
        const resolved = resolve(root, member);
        if (isPlainObject(resolved) && isPlainObject(resolved['properties'])) branches.push(resolved);
      }
    }
  }
  return branches;
}

/**
 * Undo what `openai-strict` asks of the model: remove every argument that is `null` where the
 * ORIGINAL input schema made the property optional and does not itself accept `null`, at any
 * depth (nested objects, array items, local `$ref`s), so the server sees "not given" instead
 * of `null`. Returns a new value; the input is not mutated. Other values pass through.
 *
 * @example
 * stripNullOptionals({ q: 'x', page: null }, { type: 'object', properties: { q: {}, page: { type: 'number' } }, required: ['q'] });
 * // → { q: 'x' }
 */
export function stripNullOptionals<T>(args: T, inputSchema: unknown): T {
  const root = inputSchema;
  const holder: unknown[] = [undefined];
  const stack: { value: unknown; schema: unknown; parent: unknown[] | Record<string, unknown>; key: string | number }[] = [
    { value: args, schema: inputSchema, parent: holder, key: 0 },
  ];
  while (stack.length > 0) {
    const { value, schema, parent, key } = stack.pop()!;
    const assign = (copy: unknown) => {
      if (key === '__proto__') Object.defineProperty(parent, key, { value: copy, writable: true, enumerable: true, configurable: true });
      else (parent as Record<string | number, unknown>)[key] = copy;
    };
    if (Array.isArray(value)) {
      const node = resolve(root, schema);
      const items = isPlainObject(node) ? node['items'] : undefined;
      const copy = new Array<unknown>(value.length);
      assign(copy);
      value.forEach((item, index) =>
        stack.push({ value: item, schema: Array.isArray(items) ? items[index] : items, parent: copy, key: index }),
      );
    } else if (isPlainObject(value)) {
      const branches = objectBranches(root, schema);
      const copy: Record<string, unknown> = {};
      assign(copy);
      for (const name of Object.keys(value)) {
        const item = value[name];
        const owners = branches.filter((branch) => Object.prototype.hasOwnProperty.call(branch['properties'], name));
        const propertySchemas = owners.map((branch) => (branch['properties'] as Record<string, unknown>)[name]);
        if (item === null && owners.length > 0) {
          const required = owners.some((branch) => Array.isArray(branch['required']) && branch['required'].includes(name));
          if (!required && !propertySchemas.some((propertySchema) => allowsNull(root, propertySchema))) continue;
        }
        stack.push({ value: item, schema: propertySchemas[0], parent: copy, key: name });
      }
    } else {
      assign(value);
    }
  }
  return holder[0] as T;
}
