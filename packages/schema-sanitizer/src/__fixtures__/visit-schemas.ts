// Test helper: visit every schema node of a schema tree iteratively (never data values such as `default`).
import { keywordKind, SCHEMA, SCHEMA_LIST, SCHEMA_MAP, SCHEMA_OR_LIST } from '../schema-keywords.js';

/** Call `visit` with every schema object in `root` and its JSON pointer. */
export function visitSchemas(root: unknown, visit: (node: Record<string, unknown>, path: string) => void): void {
  const stack: { node: unknown; path: string }[] = [{ node: root, path: '' }];
  while (stack.length > 0) {
    const { node, path } = stack.pop()!;
    if (typeof node !== 'object' || node === null || Array.isArray(node)) continue;
    const schema = node as Record<string, unknown>;
    visit(schema, path);
    for (const [key, value] of Object.entries(schema)) {
      const kind = keywordKind(key);
      if (kind === SCHEMA || (kind === SCHEMA_OR_LIST && !Array.isArray(value))) stack.push({ node: value, path: `${path}/${key}` });
      else if ((kind === SCHEMA_LIST || kind === SCHEMA_OR_LIST) && Array.isArray(value))
        value.forEach((item, index) => stack.push({ node: item, path: `${path}/${key}/${index}` }));
      else if (kind === SCHEMA_MAP && value && typeof value === 'object')
        for (const [name, item] of Object.entries(value)) stack.push({ node: item, path: `${path}/${key}/${name}` });
    }
  }
}

/** Freeze an object tree (iteratively) so any mutation throws in strict mode. */
export function deepFreeze<T>(value: T): T {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const node = stack.pop();
    if (typeof node === 'object' && node !== null && !Object.isFrozen(node)) {
      Object.freeze(node);
      for (const child of Object.values(node)) stack.push(child);
    }
  }
  return value;
}

/** Build `{ type: 'object', properties: { child: { ... } } }` nested `depth` levels. */
export function deeplyNested(depth: number): Record<string, unknown> {
  let node: Record<string, unknown> = { type: 'string' };
  for (let level = 0; level < depth; level++) node = { type: 'object', properties: { child: node }, additionalProperties: false };
  return node;
}

/** Depth of the `properties.child` chain, counted iteratively. */
export function chainDepth(node: unknown): number {
  let depth = 0;
  let current = node as Record<string, unknown> | undefined;
  while (current && typeof current === 'object' && current['properties']) {
    current = (current['properties'] as Record<string, unknown>)['child'] as Record<string, unknown> | undefined;
    depth++;
  }
  return depth;
}
